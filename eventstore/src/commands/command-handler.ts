import { createHash, randomUUID } from 'node:crypto';
import {
  type Actor,
  type Command,
  ConflictError,
  type Decider,
  type Event,
  type EventMetadata,
  eventSchemaVersion,
  ForbiddenError,
  NotFoundError,
  UnauthorizedError,
} from '@bugtrail/domain';
import type pg from 'pg';
import {
  DuplicateEventIdError,
  type EventStore,
  type ExpectedRevision,
  type Position,
  type RecordedEvent,
  WrongExpectedRevisionError,
} from '../port.js';

/**
 * The one write path. Every command, from an HTTP route or a reactor, goes through
 * `CommandHandler.handle`: load the stream (fold `evolve`) → `decide` → append with
 * the revision it decided on → on a conflict, re-read and re-decide (bounded, with
 * jittered backoff) or refuse with a 409 → idempotency: event ids derive from the
 * client's Idempotency-Key, from the event a reactor reacts to, or from what the
 * command is about, so doing the same thing twice appends it once.
 */

export type CommandContext = Readonly<{
  actor: Actor | null;
  /** One per request (or per reacted-to event), on every event it causes. */
  correlationId: string;
  /** The client's Idempotency-Key, when it sent one. */
  idempotencyKey: string | null;
  /** The id of the event a reactor reacts to: event ids derive from it. */
  causationEventId?: string | null;
}>;

export type HandleOptions<State = unknown> = Readonly<{
  /** The revision the client decided on (If-Match). A stale one is a 409. */
  expectedVersion?: number;
  /** Commutative commands re-read and re-decide on a concurrent write. */
  retryOnConflict?: boolean;
  /** The stream must not exist yet (creation). */
  mustBeNew?: boolean;
  /** Append without a revision check (a chat's timeline: a busy chat never conflicts). */
  anyRevision?: boolean;
  /**
   * What this command is about, when doing it twice must append it once whoever
   * asks (deleting one message): event ids derive from it.
   */
  naturalKey?: string;
  /** The 409 message for a stale If-Match or a lost race. */
  staleMessage?: string;
  /**
   * Event types that do not make an If-Match stale: appended after the client's version,
   * they change nothing it decided on (a comment under a bug being edited).
   */
  harmlessEventTypes?: ReadonlySet<string>;
  /**
   * Optional metadata a request adds to each event it appends, beside what every event
   * carries: the report form's suggestion usage on `BugReported`, an import's source and
   * original time, the code host that acted.
   */
  extraMetadata?: (event: Event, index: number) => ExtraMetadata | undefined;
  /**
   * The write side's own rows that change with these events (a user's credentials), given
   * the state they make: one transaction with the append (ADR 026). What it throws appends
   * nothing; a retry after a conflict runs it again on the new decision.
   */
  alongside?: (tx: pg.ClientBase, decided: Decided<State>) => Promise<void>;
}>;

/** A decision about to be appended: the state it was made on, its events and the state they make. */
export type Decided<State> = Readonly<{ before: State; state: State; newEvents: readonly Event[] }>;

export type ExtraMetadata = Readonly<
  Partial<Pick<EventMetadata, 'suggestions' | 'importedFrom' | 'actorName' | 'occurredAt' | 'rule'>>
>;

export type Handled<State> = Readonly<{
  state: State;
  newEvents: readonly Event[];
  /** Store position of the last event appended (or replayed); null when nothing was. */
  position: Position | null;
  revision: number;
  /** True when this exact command had been handled before: nothing new was appended. */
  replayed: boolean;
}>;

export type CommandHandlerOptions = Readonly<{
  /** Attempts for a command that retries on conflict (default 6). */
  maxAttempts?: number;
  /** Backoff before retry n is random in [0, baseDelayMs · 2^n) (default 2 ms). */
  baseDelayMs?: number;
  /** Streams whose folded state is kept between commands (default 2,000). */
  cachedStreams?: number;
  random?: () => number;
  sleep?: (ms: number) => Promise<void>;
}>;

/** A UUID derived from a name: the same inputs always give the same id. */
export function deriveEventId(key: string, scope: string, index: number): string {
  const hex = createHash('sha256').update(`${scope}\u0000${key}\u0000${index}`).digest('hex');
  // Shaped as an RFC 4122 version-5-style UUID.
  const variant = ((Number.parseInt(hex.slice(16, 18), 16) & 0x3f) | 0x80).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-${variant}${hex.slice(18, 20)}-${hex.slice(20, 32)}`;
}

type Folded<State> = {
  state: State;
  revision: number;
  /** The ids of the stream's newest events, to recognise a quick retry without a full read. */
  recentIds: string[];
};
type CacheEntry = Folded<unknown> & { evolve: unknown };

const RECENT_IDS = 64;
const DEFAULT_STALE = 'This item was changed by someone else. Reload and try again.';

export class CommandHandler {
  private readonly cache = new Map<string, CacheEntry>();
  private readonly maxAttempts: number;
  private readonly baseDelayMs: number;
  private readonly cachedStreams: number;
  private readonly random: () => number;
  private readonly sleep: (ms: number) => Promise<void>;

  constructor(
    readonly store: EventStore,
    options: CommandHandlerOptions = {},
  ) {
    this.maxAttempts = options.maxAttempts ?? 6;
    this.baseDelayMs = options.baseDelayMs ?? 2;
    this.cachedStreams = options.cachedStreams ?? 2000;
    this.random = options.random ?? Math.random;
    this.sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
  }

  /** The stream's current state, folded (from this process's cache plus what is new). */
  async load<State, E extends Event>(
    streamId: string,
    decider: Pick<Decider<State, Command, E>, 'initialState' | 'evolve'>,
  ): Promise<{ state: State; revision: number }> {
    const folded = await this.fold(streamId, decider);
    return { state: folded.state, revision: folded.revision };
  }

  async handle<State, C extends Command, E extends Event>(
    streamId: string,
    decider: Decider<State, C, E>,
    command: C,
    context: CommandContext,
    options: HandleOptions<State> = {},
  ): Promise<Handled<State>> {
    const idSource = idSourceOf(context, options);
    const scope = idSource ? `${idSource.scope}:${streamId}:${command.type}` : '';
    const eventId = (index: number) => (idSource ? deriveEventId(idSource.key, scope, index) : randomUUID());
    const maxAttempts = options.retryOnConflict ? this.maxAttempts : 1;

    for (let attempt = 1; ; attempt++) {
      // A brand-new stream (a fresh id, nothing to replay) has nothing to read; the
      // append's "no stream" check still guards it in the store.
      const skipRead = options.mustBeNew && !idSource;
      const folded: Folded<State> = skipRead
        ? { state: decider.initialState(), revision: -1, recentIds: [] }
        : await this.fold(streamId, decider);
      // Decided even when the command was handled before: a replay answers only a caller
      // the decider lets through (a repeated delete by a stranger is still refused).
      if (
        options.expectedVersion !== undefined &&
        options.expectedVersion !== folded.revision &&
        !(await this.onlyHarmlessSince(streamId, options.expectedVersion, folded.revision, options.harmlessEventTypes))
      ) {
        throw new ConflictError(options.staleMessage ?? DEFAULT_STALE);
      }
      let events: readonly E[];
      try {
        events = decider.decide(command, folded.state);
      } catch (error) {
        // A retry the new state refuses (the thing is gone, the change is made): answer as the
        // first did. Never when the refusal is about who asks or what they may see.
        if (idSource && mightBeStored(folded, eventId(0)) && !isRefusalOfTheCaller(error)) {
          const replayed = await this.replayIfStored(streamId, decider, eventId);
          if (replayed) return replayed;
        }
        throw error;
      }
      if (events.length === 0) {
        if (idSource && mightBeStored(folded, eventId(0))) {
          const replayed = await this.replayIfStored(streamId, decider, eventId);
          if (replayed) return replayed;
        }
        return { state: folded.state, newEvents: [], position: null, revision: folded.revision, replayed: false };
      }

      const metadata: EventMetadata[] = events.map((event, index) => ({
        actorId: context.actor?.id ?? null,
        correlationId: context.correlationId,
        causationId: context.causationEventId ?? context.idempotencyKey,
        occurredAt: command.metadata.now,
        schemaVersion: eventSchemaVersion(event.type),
        ...options.extraMetadata?.(event, index),
      }));
      const expected: ExpectedRevision = options.anyRevision
        ? 'any'
        : options.mustBeNew || folded.revision < 0
          ? 'no_stream'
          : folded.revision;
      const ids = events.map((_, index) => eventId(index));
      let state = folded.state;
      for (const [index, event] of events.entries()) {
        // Evolve with metadata, as the events will be read back from the store.
        state = decider.evolve(state, { ...event, metadata: metadata[index] } as E);
      }
      const { alongside } = options;
      const decided = { before: folded.state, state, newEvents: events };
      try {
        const result = await this.store.append(
          streamId,
          events.map((event, index) => ({
            id: ids[index]!,
            type: event.type,
            data: event.data,
            metadata: metadata[index]!,
          })),
          expected,
          alongside ? { alongside: (tx) => alongside(tx, decided) } : undefined,
        );
        if (result.alreadyAppended) return this.replay(streamId, decider, eventId);
        // Another append may have slipped in between (anyRevision): then the next
        // command reads it; only a contiguous result is cached.
        if (result.nextExpectedRevision === folded.revision + events.length) {
          this.remember(streamId, decider.evolve, {
            state,
            revision: result.nextExpectedRevision,
            recentIds: [...folded.recentIds, ...ids].slice(-RECENT_IDS),
          });
        }
        return {
          state,
          newEvents: events,
          position: result.position,
          revision: result.nextExpectedRevision,
          replayed: false,
        };
      } catch (error) {
        if (error instanceof DuplicateEventIdError) {
          // The same key sent with a different request: refuse, never claim it was done.
          throw new ConflictError('This Idempotency-Key was already used for a different request');
        }
        if (!(error instanceof WrongExpectedRevisionError)) throw error;
        if (attempt < maxAttempts) {
          await this.sleep(this.random() * this.baseDelayMs * 2 ** attempt);
          continue;
        }
        if (options.mustBeNew && !options.retryOnConflict) throw new ConflictError('Already exists');
        throw new ConflictError(options.staleMessage ?? DEFAULT_STALE);
      }
    }
  }

  /** Folds the stream: from the cached state, only the events appended since. */
  /** Whether every event after `version` (up to `revision`) is of a harmless type. */
  private async onlyHarmlessSince(
    streamId: string,
    version: number,
    revision: number,
    harmless: ReadonlySet<string> | undefined,
  ): Promise<boolean> {
    if (!harmless || version < 0 || version >= revision) return false;
    const since = await this.store.readStream(streamId, { from: version + 1 });
    return since.length > 0 && since.every((event) => event.revision > revision || harmless.has(event.type));
  }

  private async fold<State, E extends Event>(
    streamId: string,
    decider: Pick<Decider<State, Command, E>, 'initialState' | 'evolve'>,
  ): Promise<Folded<State>> {
    const entry = this.cache.get(streamId);
    const cached = entry && entry.evolve === decider.evolve ? (entry as Folded<State>) : null;
    const recorded = await this.store.readStream(streamId, cached ? { from: cached.revision + 1 } : {});
    let state = cached ? cached.state : decider.initialState();
    for (const event of recorded) state = decider.evolve(state, event as unknown as E);
    const revision = recorded.length > 0 ? recorded[recorded.length - 1]!.revision : (cached?.revision ?? -1);
    const recentIds = [...(cached?.recentIds ?? []), ...recorded.map((e) => e.id)].slice(-RECENT_IDS);
    const folded = { state, revision, recentIds };
    if (revision >= 0 && recorded.length > 0) this.remember(streamId, decider.evolve, folded);
    return folded;
  }

  private remember(streamId: string, evolve: unknown, folded: Folded<unknown>): void {
    this.cache.delete(streamId);
    this.cache.set(streamId, { ...folded, evolve });
    if (this.cache.size > this.cachedStreams) {
      const oldest = this.cache.keys().next().value;
      if (oldest !== undefined) this.cache.delete(oldest);
    }
  }

  private async replayIfStored<State, E extends Event>(
    streamId: string,
    decider: Pick<Decider<State, Command, E>, 'initialState' | 'evolve'>,
    eventId: (index: number) => string,
  ): Promise<Handled<State> | null> {
    const recorded = await this.store.readStream(streamId);
    return replayFrom(recorded, decider, eventId);
  }

  /** The same command was handled before: answer as it did, append nothing. */
  private async replay<State, E extends Event>(
    streamId: string,
    decider: Pick<Decider<State, Command, E>, 'initialState' | 'evolve'>,
    eventId: (index: number) => string,
  ): Promise<Handled<State>> {
    const replayed = await this.replayIfStored(streamId, decider, eventId);
    if (!replayed) throw new Error(`replay of ${streamId} found no events`);
    return replayed;
  }
}

/** The recent ids hold every id of a short stream, so a miss there is a miss. */
function mightBeStored(folded: { recentIds: readonly string[] }, id: string): boolean {
  return folded.recentIds.includes(id) || folded.recentIds.length >= RECENT_IDS;
}

function isRefusalOfTheCaller(error: unknown): boolean {
  return error instanceof ForbiddenError || error instanceof NotFoundError || error instanceof UnauthorizedError;
}

function idSourceOf(
  context: CommandContext,
  options: Pick<HandleOptions, 'naturalKey'>,
): { key: string; scope: string } | null {
  if (options.naturalKey) return { key: options.naturalKey, scope: 'natural' };
  if (context.causationEventId) return { key: context.causationEventId, scope: 'caused-by' };
  if (context.idempotencyKey) return { key: context.idempotencyKey, scope: context.actor?.id ?? 'anonymous' };
  return null;
}

function replayFrom<State, E extends Event>(
  recorded: readonly RecordedEvent[],
  decider: Pick<Decider<State, Command, E>, 'initialState' | 'evolve'>,
  eventId: (index: number) => string,
): Handled<State> | null {
  const first = recorded.findIndex((e) => e.id === eventId(0));
  if (first < 0) return null;
  let end = first;
  while (end + 1 < recorded.length && recorded[end + 1]!.id === eventId(end + 1 - first)) end++;
  let state = decider.initialState();
  for (const event of recorded.slice(0, end + 1)) state = decider.evolve(state, event as unknown as E);
  const mine = recorded.slice(first, end + 1);
  const last = mine[mine.length - 1]!;
  return {
    state,
    newEvents: mine.map((e) => ({ type: e.type, data: e.data as Readonly<unknown> })),
    position: last.position,
    revision: last.revision,
    replayed: true,
  };
}
