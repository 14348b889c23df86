import { createHash, randomUUID } from 'node:crypto';
import {
  type Actor,
  type Command,
  ConflictError,
  type Decider,
  type Event,
  type EventMetadata,
  eventSchemaVersion,
} from '@bugtrail/domain';
import {
  DuplicateEventIdError,
  type EventStore,
  type ExpectedRevision,
  WrongExpectedRevisionError,
} from '@bugtrail/eventstore';

export type CommandContext = Readonly<{
  actor: Actor | null;
  correlationId: string;
  /** When the client sent Idempotency-Key: event ids derive from it. */
  idempotencyKey: string | null;
}>;

export type HandleOptions = Readonly<{
  /** The revision the client decided on (If-Match). A stale one is a 409. */
  expectedVersion?: number;
  /** Commutative commands re-read and re-decide on a concurrent write. */
  retryOnConflict?: boolean;
  /** The stream must not exist yet (creation). */
  mustBeNew?: boolean;
  /** Override the 409 message for a stale If-Match. */
  staleMessage?: string;
}>;

export type Handled<State> = Readonly<{
  state: State;
  newEvents: readonly Event[];
  /** Store position of the last appended event; null when nothing was appended. */
  position: string | null;
  revision: number;
}>;

/** A UUID derived from the idempotency key, so a retried request writes the same ids. */
export function deriveEventId(key: string, scope: string, index: number): string {
  const hex = createHash('sha256').update(`${scope}\u0000${key}\u0000${index}`).digest('hex');
  // Shape it as an RFC 4122 version-5-style UUID.
  const variant = ((Number.parseInt(hex.slice(16, 18), 16) & 0x3f) | 0x80).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-${variant}${hex.slice(18, 20)}-${hex.slice(20, 32)}`;
}

/**
 * The whole write path: read the stream, fold `evolve`, `decide`, append with the
 * revision the decision was made on. Nothing is appended when `decide` throws.
 */
export async function handleCommand<State, C extends Command, E extends Event>(
  store: EventStore,
  streamId: string,
  decider: Decider<State, C, E>,
  command: C,
  context: CommandContext,
  options: HandleOptions = {},
): Promise<Handled<State>> {
  for (let attempt = 0; ; attempt++) {
    // A brand-new stream (fresh id, no idempotency key) has nothing to read; the
    // append's "no stream" check still guards it in the store.
    const recorded = options.mustBeNew && !context.idempotencyKey ? [] : await store.readStream(streamId);
    const scope = `${context.actor?.id ?? 'anonymous'}:${streamId}:${command.type}`;
    const replay = context.idempotencyKey ? findReplay(recorded, context.idempotencyKey, scope) : -1;
    if (replay >= 0) {
      // The same request was handled before: answer as it did, append nothing.
      let state = decider.initialState();
      let end = replay;
      for (let i = 0; replay + i < recorded.length; i++) {
        if (recorded[replay + i]!.id !== deriveEventId(context.idempotencyKey!, scope, i)) break;
        end = replay + i;
      }
      for (const event of recorded.slice(0, end + 1)) state = decider.evolve(state, event as unknown as E);
      const mine = recorded.slice(replay, end + 1);
      return {
        state,
        newEvents: mine.map((e) => ({ type: e.type, data: e.data as Readonly<unknown> })) as readonly Event[],
        position: mine[mine.length - 1]!.position,
        revision: mine[mine.length - 1]!.revision,
      };
    }
    let state = decider.initialState();
    for (const event of recorded) state = decider.evolve(state, event as unknown as E);
    const revision = recorded.length > 0 ? recorded[recorded.length - 1]!.revision : -1;
    if (options.expectedVersion !== undefined && options.expectedVersion !== revision) {
      throw new ConflictError(options.staleMessage ?? 'This item was changed by someone else. Reload and try again.');
    }
    const events = decider.decide(command, state);
    if (events.length === 0) return { state, newEvents: [], position: null, revision };
    const expected: ExpectedRevision = options.mustBeNew || revision < 0 ? 'no_stream' : revision;
    const occurredAt = command.metadata.now;
    const metadataFor = (event: E): EventMetadata => ({
      actorId: context.actor?.id ?? null,
      correlationId: context.correlationId,
      causationId: context.idempotencyKey,
      occurredAt,
      schemaVersion: eventSchemaVersion(event.type),
    });
    try {
      const result = await store.append(
        streamId,
        events.map((event, index) => ({
          id: context.idempotencyKey ? deriveEventId(context.idempotencyKey, scope, index) : randomUUID(),
          type: event.type,
          data: event.data,
          metadata: metadataFor(event),
        })),
        expected,
      );
      // Evolve with metadata, as the events will be read back from the store.
      for (const event of events) state = decider.evolve(state, { ...event, metadata: metadataFor(event) } as E);
      return { state, newEvents: events, position: result.position, revision: result.nextExpectedRevision };
    } catch (error) {
      if (error instanceof DuplicateEventIdError) {
        // The same Idempotency-Key sent with a different request: refuse, never claim it was done.
        throw new ConflictError('This Idempotency-Key was already used for a different request');
      }
      if (!(error instanceof WrongExpectedRevisionError)) throw error;
      if (options.retryOnConflict && attempt < 5) continue;
      if (options.mustBeNew) throw new ConflictError('Already exists');
      throw new ConflictError(options.staleMessage ?? 'This item was changed by someone else. Reload and try again.');
    }
  }
}

function findReplay(recorded: readonly { id: string }[], key: string, scope: string): number {
  const first = deriveEventId(key, scope, 0);
  return recorded.findIndex((e) => e.id === first);
}
