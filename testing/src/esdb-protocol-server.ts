/**
 * A protocol test double, NOT EventStoreDB: an in-memory gRPC server on 127.0.0.1 that answers
 * the part of EventStoreDB's client protocol the EventStoreDB adapter uses, built from
 * `@eventstore/db-client`'s own generated service definitions and messages. It shows that the
 * adapter and the client work against the protocol as the server's source describes it; no
 * more (no disk, cluster, ACLs, projections, scavenging).
 *
 * Implemented as EventStoreDB 21.10+ answers (its IndexWriter, AllReader, Enumerators):
 * - Streams.Append (options, then proposed messages) and Streams.BatchAppend (by correlation
 *   id, until `is_final`), with the commit check: a revision, no_stream, stream_exists or any;
 *   WrongExpectedVersion carries the current revision; the same ids again at an older revision
 *   (for `any`: ids already in the stream) are idempotent and answer the stored events' last
 *   revision and position; a batch only partly stored already is a WrongExpectedVersion.
 * - Streams.Read of a stream (from a revision, either way; StreamNotFound), of $all (forwards
 *   from a position inclusive, backwards exclusive) and subscriptions to $all: confirmation,
 *   the events after the position, a checkpoint, caught-up, then live; event-type or stream
 *   filters (regex or prefixes).
 * - ServerFeatures listing BatchAppend, or none (`batchAppend: false`, as 20.x: UNIMPLEMENTED,
 *   and the client appends with Append).
 * An event's position is its log position (commit = prepare), growing by the record's size;
 * `created` is .NET ticks since the Unix epoch. System events (`$` types in `$` streams) are in
 * $all from the start and after every few appends, as the server's stats are.
 */
import { randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import * as grpc from '@grpc/grpc-js';

type StreamsPb = typeof import('@eventstore/db-client/generated/streams_pb.js');
type SharedPb = typeof import('@eventstore/db-client/generated/shared_pb.js');
type StatusPb = typeof import('@eventstore/db-client/generated/status_pb.js');
type FeaturesPb = typeof import('@eventstore/db-client/generated/serverfeatures_pb.js');
type CodePb = typeof import('@eventstore/db-client/generated/code_pb.js');
type ReadReq = InstanceType<StreamsPb['ReadReq']>;
type ReadOptions = InstanceType<StreamsPb['ReadReq']['Options']>;
type ReadResp = InstanceType<StreamsPb['ReadResp']>;
type AppendReq = InstanceType<StreamsPb['AppendReq']>;
type AppendResp = InstanceType<StreamsPb['AppendResp']>;
type BatchAppendReq = InstanceType<StreamsPb['BatchAppendReq']>;
type BatchAppendResp = InstanceType<StreamsPb['BatchAppendResp']>;
type UuidMessage = InstanceType<SharedPb['UUID']>;
type ProposedMessage =
  | InstanceType<StreamsPb['AppendReq']['ProposedMessage']>
  | InstanceType<StreamsPb['BatchAppendReq']['ProposedMessage']>;
type ProtoAny = NonNullable<Parameters<InstanceType<StatusPb['Status']>['setDetails']>[0]>;
type ProtoEmpty = NonNullable<Parameters<InstanceType<SharedPb['WrongExpectedVersion']>['setExpectedAny']>[0]>;

// The generated modules are CommonJS; the package has no exports map, so deep paths resolve.
const require = createRequire(import.meta.url);
const generated = <T>(name: string): T => require(`@eventstore/db-client/generated/${name}.js`) as T;
const streamsPb = generated<StreamsPb>('streams_pb');
const sharedPb = generated<SharedPb>('shared_pb');
const statusPb = generated<StatusPb>('status_pb');
const featuresPb = generated<FeaturesPb>('serverfeatures_pb');
const { Code } = generated<CodePb>('code_pb');
const { StreamsService } = generated<{ StreamsService: grpc.ServiceDefinition }>('streams_grpc_pb');
const { ServerFeaturesService } = generated<{ ServerFeaturesService: grpc.ServiceDefinition }>(
  'serverfeatures_grpc_pb',
);
// google-protobuf as the client itself resolves it.
const clientRequire = createRequire(require.resolve('@eventstore/db-client/package.json'));
const { Any } = clientRequire('google-protobuf/google/protobuf/any_pb.js') as { Any: new () => ProtoAny };
const { Empty: GoogleEmpty } = clientRequire('google-protobuf/google/protobuf/empty_pb.js') as {
  Empty: new () => ProtoEmpty;
};

type StoredEvent = {
  id: string;
  stream: string;
  revision: bigint;
  /** Log position: commit and prepare alike (one prepare per event, as since 20.x). */
  position: bigint;
  type: string;
  contentType: string;
  /** .NET ticks (100 ns) since the Unix epoch, as the server sends `created`. */
  created: bigint;
  data: Uint8Array;
  metadata: Uint8Array;
};
type Proposed = Omit<StoredEvent, 'stream' | 'revision' | 'position' | 'created'>;
type Expected = bigint | 'any' | 'no_stream' | 'stream_exists';
type Outcome = { ok: true; revision: bigint; position: bigint } | { ok: false; current: bigint | null };

export type EsdbProtocolServerOptions = {
  /** Advertise BatchAppend through ServerFeatures (21.10+); false answers UNIMPLEMENTED (20.x). Default true. */
  batchAppend?: boolean;
  /** A `$statsCollected` system event after every this many appends (0: never). Default 25. */
  systemEventEvery?: number;
};

export type EsdbProtocolServer = {
  connectionString: string;
  /** What the server answered so far, for tests to assert the path they took. */
  readonly counters: Readonly<ReturnType<typeof newCounters>>;
  /** Test-only: edits a stored event's JSON data in place, as someone with the database files could. */
  tamperWithEvent(streamId: string, revision: number, edit: (data: unknown) => unknown): void;
  close(): Promise<void>;
};

const newCounters = () => ({
  appends: 0,
  batchAppends: 0,
  idempotentAppends: 0,
  wrongExpectedVersions: 0,
  reads: 0,
  subscriptions: 0,
  featureQueries: 0,
});

const utf8 = new TextEncoder();
const fromUtf8 = new TextDecoder();
const TICKS_PER_MS = 10_000n;
/** Where the first record starts: the log's header and the server's own first records come before. */
const FIRST_POSITION = 1_024n;

/** The client sends ids as strings (never the structured form); the server keeps them as GUIDs. */
function parseUuid(uuid: UuidMessage | undefined): string {
  if (!uuid?.hasString()) throw invalid('ids are sent as strings');
  return uuid.getString().toLowerCase();
}

function streamName(identifier: { getStreamName_asU8(): Uint8Array } | undefined): string {
  if (!identifier) throw invalid('a stream identifier is required');
  return fromUtf8.decode(identifier.getStreamName_asU8());
}

function streamIdentifier(name: string) {
  const identifier = new sharedPb.StreamIdentifier();
  identifier.setStreamName(utf8.encode(name));
  return identifier;
}

function invalid(message: string): grpc.ServiceError {
  return Object.assign(new Error(message), {
    code: grpc.status.INVALID_ARGUMENT,
    details: message,
    metadata: new grpc.Metadata(),
  });
}

/** A proposed message as the server takes it: `type` and `content-type` are required. */
function proposed(message: ProposedMessage): Proposed {
  const type = message.getMetadataMap().get('type');
  const contentType = message.getMetadataMap().get('content-type');
  if (!type || !contentType) throw invalid('type and content-type are required');
  const [id, data, metadata] = [parseUuid(message.getId()), message.getData_asU8(), message.getCustomMetadata_asU8()];
  return { id, type, contentType, data, metadata };
}

type Pair = readonly [commit: bigint, prepare: bigint];
/** Compares an event's position (commit = prepare) with a (commit, prepare) pair, as the server's TFPos. */
const compare = (position: bigint, pair: Pair) =>
  position !== pair[0] ? (position < pair[0] ? -1 : 1) : position === pair[1] ? 0 : position < pair[1] ? -1 : 1;

/** A ReadResp with one of its cases set. */
function readResp(set: (response: ReadResp) => void): ReadResp {
  const response = new streamsPb.ReadResp();
  set(response);
  return response;
}

/** Fails a streaming call with a status (grpc-js sends an emitted error as the call's status). */
const fail = (call: { emit(event: 'error', error: Error): boolean }, error: unknown) =>
  call.emit('error', error instanceof Error ? error : new Error(String(error)));

export async function startEsdbProtocolServer(options: EsdbProtocolServerOptions = {}): Promise<EsdbProtocolServer> {
  const systemEventEvery = options.systemEventEvery ?? 25;
  const log: StoredEvent[] = [];
  const streams = new Map<string, StoredEvent[]>();
  /** The server's idempotency cache (event id → where it is stored); unbounded here. */
  const byId = new Map<string, StoredEvent>();
  const listeners = new Set<() => void>();
  const counters = newCounters();
  let nextPosition = FIRST_POSITION;
  let appendsSinceStats = 0;
  let closing = false;

  function write(stream: string, events: readonly Proposed[]): StoredEvent[] {
    const existing = streams.get(stream) ?? [];
    streams.set(stream, existing);
    const created = BigInt(Date.now()) * TICKS_PER_MS;
    const stored = events.map((e) => {
      const event = { ...e, stream, revision: BigInt(existing.length), position: nextPosition, created };
      // A prepare record: a header, the stream name, the payloads.
      nextPosition += BigInt(96 + stream.length + e.type.length + e.data.length + e.metadata.length);
      existing.push(event);
      log.push(event);
      byId.set(e.id, event);
      return event;
    });
    for (const wake of listeners) wake();
    return stored;
  }

  function writeSystemEvent(stream: string, type: string, data: unknown) {
    const json = utf8.encode(JSON.stringify(data));
    write(stream, [
      { id: randomUUID(), type, contentType: 'application/json', data: json, metadata: new Uint8Array() },
    ]);
  }

  /** The server's commit check (IndexWriter.CheckCommit), then the write. */
  function append(stream: string, expected: Expected, events: readonly Proposed[]): Outcome {
    const existing = streams.get(stream) ?? [];
    const current = BigInt(existing.length) - 1n;
    const wrong = (): Outcome => {
      counters.wrongExpectedVersions += 1;
      return { ok: false, current: current < 0n ? null : current };
    };
    const idempotent = (last: StoredEvent): Outcome => {
      counters.idempotentAppends += 1;
      return { ok: true, revision: last.revision, position: last.position };
    };
    if (expected === 'stream_exists' && current < 0n) return wrong();
    if (expected === 'any' || expected === 'stream_exists') {
      // Idempotent when the first id is stored in this stream already, and all the rest after it.
      const found = events.map((e) => byId.get(e.id)).filter((e) => e?.stream === stream);
      if (found.length === events.length && events.length > 0) return idempotent(found.at(-1)!);
      if (found.length > 0 && byId.get(events[0]!.id)?.stream === stream) return wrong();
    } else {
      const at = expected === 'no_stream' ? -1n : expected;
      if (at > current) return wrong();
      if (at < current) {
        // Only a retry of what is stored right after the expected revision is idempotent.
        const stored = events.map((e, i) => existing[Number(at) + 1 + i]?.id === e.id);
        return stored.every(Boolean) && events.length > 0 ? idempotent(existing[Number(at) + events.length]!) : wrong();
      }
    }
    const last = write(stream, events).at(-1);
    if (systemEventEvery > 0 && !stream.startsWith('$') && ++appendsSinceStats >= systemEventEvery) {
      appendsSinceStats = 0;
      writeSystemEvent('$stats-127.0.0.1:2113', '$statsCollected', { 'proc-id': process.pid, at: Date.now() });
    }
    return last ? { ok: true, revision: last.revision, position: last.position } : wrong();
  }

  function readEvent(event: StoredEvent): ReadResp {
    const recorded = new streamsPb.ReadResp.ReadEvent.RecordedEvent();
    const id = new sharedPb.UUID();
    id.setString(event.id);
    recorded.setId(id);
    recorded.setStreamIdentifier(streamIdentifier(event.stream));
    recorded.setStreamRevision(event.revision.toString());
    recorded.setCommitPosition(event.position.toString());
    recorded.setPreparePosition(event.position.toString());
    const metadata = recorded.getMetadataMap();
    metadata.set('type', event.type);
    metadata.set('content-type', event.contentType);
    metadata.set('created', event.created.toString());
    recorded.setCustomMetadata(event.metadata);
    recorded.setData(event.data);
    const read = new streamsPb.ReadResp.ReadEvent();
    read.setEvent(recorded);
    read.setCommitPosition(event.position.toString());
    return readResp((r) => r.setEvent(read));
  }

  function filterOf(options: ReadOptions): (event: StoredEvent) => boolean {
    if (!options.hasFilter()) return () => true;
    const filter = options.getFilter()!;
    const onType = filter.hasEventType();
    const expression = onType ? filter.getEventType() : filter.getStreamIdentifier();
    if (!expression) return () => true;
    const regex = expression.getRegex() ? new RegExp(expression.getRegex()) : null;
    const prefixes = expression.getPrefixList();
    return (event) => {
      const subject = onType ? event.type : event.stream;
      if (regex) return regex.test(subject);
      return prefixes.length === 0 || prefixes.some((prefix) => subject.startsWith(prefix));
    };
  }

  /** Writes with the call's flow control: waits while the client is not reading. */
  async function send(call: grpc.ServerWritableStream<ReadReq, ReadResp>, message: ReadResp): Promise<void> {
    if (call.write(message)) return;
    await new Promise<void>((resolve) => {
      const done = () => {
        call.off('drain', done);
        call.off('cancelled', done);
        resolve();
      };
      call.on('drain', done);
      call.on('cancelled', done);
    });
  }

  function readStream(call: grpc.ServerWritableStream<ReadReq, ReadResp>, options: ReadOptions) {
    const streamOptions = options.getStream()!;
    const name = streamName(streamOptions.getStreamIdentifier());
    const events = streams.get(name);
    if (!events || events.length === 0) {
      const notFound = new streamsPb.ReadResp.StreamNotFound();
      notFound.setStreamIdentifier(streamIdentifier(name));
      call.write(readResp((r) => r.setStreamNotFound(notFound)));
      call.end();
      return;
    }
    const backwards = options.getReadDirection() === streamsPb.ReadReq.Options.ReadDirection.BACKWARDS;
    const count = Number(BigInt(options.getCount()));
    let from: number;
    if (streamOptions.hasStart()) from = 0;
    else if (streamOptions.hasEnd()) from = events.length - 1;
    else from = Number(BigInt(streamOptions.getRevision()));
    const chosen = backwards
      ? events.slice(0, Math.min(from, events.length - 1) + 1).reverse()
      : events.slice(Math.min(from, events.length));
    for (const event of chosen.slice(0, count)) call.write(readEvent(event));
    call.end();
  }

  /** The index of the first record at or after `pair` (after it, when `strictly`) in the log. */
  function firstIndex(pair: Pair, strictly: boolean): number {
    let [low, high] = [0, log.length];
    while (low < high) {
      const middle = (low + high) >>> 1;
      const order = compare(log[middle]!.position, pair);
      if (order < 0 || (strictly && order === 0)) low = middle + 1;
      else high = middle;
    }
    return low;
  }

  const pairOf = (at: { getCommitPosition(): string; getPreparePosition(): string }): Pair => [
    BigInt(at.getCommitPosition()),
    BigInt(at.getPreparePosition()),
  ];

  function readAll(call: grpc.ServerWritableStream<ReadReq, ReadResp>, options: ReadOptions) {
    const all = options.getAll()!;
    const backwards = options.getReadDirection() === streamsPb.ReadReq.Options.ReadDirection.BACKWARDS;
    const count = Number(BigInt(options.getCount()));
    const allowed = filterOf(options);
    const at = all.getPosition();
    let chosen: StoredEvent[];
    if (backwards) {
      // Backwards takes the records that end at or before the position: the event there is not among them.
      chosen = log.slice(0, all.hasStart() ? 0 : at ? firstIndex(pairOf(at), false) : log.length).reverse();
    } else {
      // Forwards starts at the position, inclusive.
      chosen = log.slice(all.hasEnd() ? log.length : at ? firstIndex(pairOf(at), false) : 0);
    }
    let sent = 0;
    for (const event of chosen) {
      if (sent >= count) break;
      if (!allowed(event)) continue;
      call.write(readEvent(event));
      sent += 1;
    }
    call.end();
  }

  /** Confirmation, catch-up after the position (exclusive), a checkpoint, caught-up, then live. */
  async function subscribeToAll(call: grpc.ServerWritableStream<ReadReq, ReadResp>, options: ReadOptions) {
    counters.subscriptions += 1;
    const all = options.getAll()!;
    const allowed = filterOf(options);
    const at = all.getPosition();
    const head = log.at(-1)?.position ?? 0n;
    // The last position sent on (or filtered out): everything after it is still to go.
    let checkpoint: Pair = all.hasStart() ? [-1n, -1n] : at ? pairOf(at) : [head, head];
    let wake: (() => void) | null = null;
    const ring = () => wake?.();
    listeners.add(ring);
    call.on('cancelled', ring);
    try {
      const confirmation = new streamsPb.ReadResp.SubscriptionConfirmation();
      confirmation.setSubscriptionId(randomUUID());
      const confirmed = readResp((r) => r.setConfirmation(confirmation));
      await send(call, confirmed);
      let caughtUp = false;
      while (!call.cancelled && !closing) {
        const next = firstIndex(checkpoint, true);
        if (next < log.length) {
          for (let i = next; i < log.length && !call.cancelled && !closing; i++) {
            const event = log[i]!;
            checkpoint = [event.position, event.position];
            if (allowed(event)) await send(call, readEvent(event));
          }
          continue;
        }
        if (!caughtUp) {
          caughtUp = true;
          const [reached, up] = [new streamsPb.ReadResp.Checkpoint(), new streamsPb.ReadResp.CaughtUp()];
          const [commit, prepare] = checkpoint[0] < 0n ? [0n, 0n] : checkpoint;
          reached.setCommitPosition(commit.toString());
          reached.setPreparePosition(prepare.toString());
          const [checkpointed, live] = [readResp((r) => r.setCheckpoint(reached)), readResp((r) => r.setCaughtUp(up))];
          await send(call, checkpointed);
          await send(call, live);
          continue;
        }
        await new Promise<void>((resolve) => {
          wake = resolve;
        });
        wake = null;
      }
    } finally {
      listeners.delete(ring);
      if (!call.cancelled) call.end();
    }
  }

  const read: grpc.handleServerStreamingCall<ReadReq, ReadResp> = (call) => {
    counters.reads += 1;
    const options = call.request.getOptions();
    if (!options) return void fail(call, invalid('options are required'));
    if (options.hasSubscription()) {
      if (!options.hasAll()) return void fail(call, invalid('this double subscribes to $all only'));
      void subscribeToAll(call, options).catch((error: unknown) => fail(call, error));
      return;
    }
    try {
      if (options.hasAll()) readAll(call, options);
      else readStream(call, options);
    } catch (error) {
      fail(call, error);
    }
  };

  type ExpectedCases = { hasAny(): boolean; hasNoStream(): boolean; hasStreamExists(): boolean };
  function expectedOf(message: ExpectedCases, revision: string): Expected {
    if (message.hasAny()) return 'any';
    if (message.hasNoStream()) return 'no_stream';
    if (message.hasStreamExists()) return 'stream_exists';
    return BigInt(revision);
  }

  function successOf(outcome: Extract<Outcome, { ok: true }>) {
    const success = new streamsPb.AppendResp.Success();
    success.setCurrentRevision(outcome.revision.toString());
    const position = new streamsPb.AppendResp.Position();
    position.setCommitPosition(outcome.position.toString());
    position.setPreparePosition(outcome.position.toString());
    success.setPosition(position);
    return success;
  }

  function wrongExpectedVersionOf(outcome: Extract<Outcome, { ok: false }>, expected: Expected) {
    const wrong = new streamsPb.AppendResp.WrongExpectedVersion();
    if (outcome.current === null) wrong.setCurrentNoStream(new sharedPb.Empty());
    else wrong.setCurrentRevision(outcome.current.toString());
    if (expected === 'any') wrong.setExpectedAny(new sharedPb.Empty());
    else if (expected === 'no_stream') wrong.setExpectedNoStream(new sharedPb.Empty());
    else if (expected === 'stream_exists') wrong.setExpectedStreamExists(new sharedPb.Empty());
    else wrong.setExpectedRevision(expected.toString());
    return wrong;
  }

  /** Options first, then the proposed messages; one answer when the client half-closes. */
  const appendCall: grpc.handleClientStreamingCall<AppendReq, AppendResp> = (call, callback) => {
    let header: { stream: string; expected: Expected } | null = null;
    let failed = false;
    const events: Proposed[] = [];
    call.on('data', (request: AppendReq) => {
      if (failed) return;
      try {
        const options = request.getOptions();
        if (!header && !options) throw invalid('the first message carries the options');
        if (options) {
          const expected = expectedOf(options, options.getRevision());
          header = { stream: streamName(options.getStreamIdentifier()), expected };
        } else events.push(proposed(request.getProposedMessage()!));
      } catch (error) {
        failed = true;
        callback(error as grpc.ServiceError);
      }
    });
    call.on('end', () => {
      if (failed) return;
      if (!header) return callback(invalid('no options'));
      counters.appends += 1;
      const outcome = append(header.stream, header.expected, events);
      const response = new streamsPb.AppendResp();
      if (outcome.ok) response.setSuccess(successOf(outcome));
      else response.setWrongExpectedVersion(wrongExpectedVersionOf(outcome, header.expected));
      callback(null, response);
    });
  };

  /** BatchAppend refuses with a google.rpc.Status whose details pack the shared WrongExpectedVersion. */
  function batchErrorOf(outcome: Extract<Outcome, { ok: false }>, expected: Expected) {
    const details = new sharedPb.WrongExpectedVersion();
    if (outcome.current === null) details.setCurrentNoStream(new GoogleEmpty());
    else details.setCurrentStreamRevision(outcome.current.toString());
    if (expected === 'any') details.setExpectedAny(new GoogleEmpty());
    else if (expected === 'no_stream') details.setExpectedNoStream(new GoogleEmpty());
    else if (expected === 'stream_exists') details.setExpectedStreamExists(new GoogleEmpty());
    else details.setExpectedStreamPosition(expected.toString());
    const packed = new Any();
    packed.pack(details.serializeBinary(), 'event_store.client.WrongExpectedVersion');
    const status = new statusPb.Status();
    status.setCode(Code.FAILED_PRECONDITION);
    status.setMessage('Wrong expected version.');
    status.setDetails(packed);
    return status;
  }

  /** Many appends on one call, told apart by correlation id; a batch is complete at `is_final`. */
  const batchAppend: grpc.handleBidiStreamingCall<BatchAppendReq, BatchAppendResp> = (call) => {
    const pending = new Map<string, { stream: string; expected: Expected; events: Proposed[] }>();
    call.on('data', (request: BatchAppendReq) => {
      try {
        const correlation = request.getCorrelationId();
        const key = parseUuid(correlation);
        const options = request.getOptions();
        if (options && !pending.has(key)) {
          const expected = expectedOf(options, options.getStreamPosition());
          pending.set(key, { stream: streamName(options.getStreamIdentifier()), expected, events: [] });
        }
        const batch = pending.get(key);
        if (!batch) throw invalid('a batch starts with its options');
        for (const message of request.getProposedMessagesList()) batch.events.push(proposed(message));
        if (!request.getIsFinal()) return;
        pending.delete(key);
        counters.batchAppends += 1;
        const outcome = append(batch.stream, batch.expected, batch.events);
        const response = new streamsPb.BatchAppendResp();
        response.setCorrelationId(correlation);
        response.setStreamIdentifier(streamIdentifier(batch.stream));
        if (outcome.ok) {
          const success = new streamsPb.BatchAppendResp.Success();
          success.setCurrentRevision(outcome.revision.toString());
          const position = new sharedPb.AllStreamPosition();
          position.setCommitPosition(outcome.position.toString());
          position.setPreparePosition(outcome.position.toString());
          success.setPosition(position);
          response.setSuccess(success);
        } else response.setError(batchErrorOf(outcome, batch.expected));
        call.write(response);
      } catch (error) {
        fail(call, error);
      }
    });
    call.on('end', () => call.end());
  };

  type SupportedMethods = InstanceType<FeaturesPb['SupportedMethods']>;
  const supportedMethods: grpc.handleUnaryCall<unknown, SupportedMethods> = (_call, callback) => {
    counters.featureQueries += 1;
    const answer = new featuresPb.SupportedMethods();
    answer.setEventStoreServerVersion('0.0.0-bugtrail-protocol-test-double');
    for (const method of ['read', 'append', 'batchappend']) {
      const supported = new featuresPb.SupportedMethod();
      supported.setServiceName('event_store.client.streams.streams');
      supported.setMethodName(method);
      answer.addMethods(supported);
    }
    callback(null, answer);
  };

  writeSystemEvent('$$$stats-127.0.0.1:2113', '$metadata', { $maxAge: 86_400 });
  writeSystemEvent('$stats-127.0.0.1:2113', '$statsCollected', { 'proc-id': process.pid, at: Date.now() });

  const server = new grpc.Server();
  server.addService(StreamsService, {
    read,
    append: appendCall,
    ...(options.batchAppend === false ? {} : { batchAppend }),
  } as grpc.UntypedServiceImplementation);
  if (options.batchAppend !== false) {
    server.addService(ServerFeaturesService, {
      getSupportedMethods: supportedMethods,
    } as grpc.UntypedServiceImplementation);
  }
  const port = await new Promise<number>((resolve, reject) => {
    server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (error, bound) =>
      error ? reject(error) : resolve(bound),
    );
  });

  return {
    connectionString: `esdb://127.0.0.1:${port}?tls=false`,
    counters,
    tamperWithEvent(streamId, revision, edit) {
      const event = streams.get(streamId)?.[revision];
      if (!event) throw new Error(`no event ${streamId}@${revision}`);
      event.data = utf8.encode(JSON.stringify(edit(JSON.parse(fromUtf8.decode(event.data)))));
    },
    async close() {
      closing = true;
      for (const wake of listeners) wake();
      // In-memory: nothing to flush. Calls still open (a client not closed first) are cancelled.
      server.forceShutdown();
    },
  };
}
