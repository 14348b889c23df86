import { createHash } from 'node:crypto';
import canonicalize from 'canonicalize';

/**
 * The tamper-evident chain of a stream (api.md "Audit trail"): each event's `hash` is the
 * lowercase hex SHA-256 of the UTF-8 bytes of the previous event's hash in the same stream
 * ("0" × 64 before the first) followed by the canonical JSON (RFC 8785) of
 * `{ stream, revision, type, data, metadata }`. Anyone holding a history answer can
 * recompute it; both adapters store it in the append that writes the event.
 */
export const GENESIS_HASH = '0'.repeat(64);

export type ChainedFields = Readonly<{
  stream: string;
  revision: number;
  type: string;
  data: unknown;
  metadata: unknown;
}>;

/** Canonical JSON as it will read back from storage (JSON values only: undefined keys dropped). */
function canonicalJson(value: unknown): string {
  const text = canonicalize(JSON.parse(JSON.stringify(value ?? null)));
  if (text === undefined) throw new Error('event data cannot be canonicalized');
  return text;
}

/**
 * The canonical text of an event split around its revision, which PostgreSQL fills in
 * (it decides the revision for `any` and `stream_exists` appends). RFC 8785 orders the
 * keys data, metadata, revision, stream, type.
 */
export function canonicalParts(event: Omit<ChainedFields, 'revision'>): { head: string; tail: string } {
  return {
    head: `{"data":${canonicalJson(event.data)},"metadata":${canonicalJson(event.metadata)},"revision":`,
    tail: `,"stream":${JSON.stringify(event.stream)},"type":${JSON.stringify(event.type)}}`,
  };
}

export function canonicalEvent(event: ChainedFields): string {
  const { head, tail } = canonicalParts(event);
  return `${head}${event.revision}${tail}`;
}

export function chainHash(previousHash: string, event: ChainedFields): string {
  return createHash('sha256').update(previousHash, 'utf8').update(canonicalEvent(event), 'utf8').digest('hex');
}

export type ChainedEvent = Readonly<{
  streamId: string;
  revision: number;
  type: string;
  data: unknown;
  metadata: unknown;
  hash: string | null;
}>;

export type ChainBreak = Readonly<{ stream: string; revision: number; reason: string }>;

export type StreamIntegrity = Readonly<{
  ok: boolean;
  events: number;
  /** The first revision whose hash (or place in the stream) is wrong; null when intact. */
  brokenAt: number | null;
  reason: string | null;
}>;

/**
 * Why `event` does not follow `previous` (its stream's event before it, as stored), or null
 * when it does: the next revision, a stored hash, and that hash recomputed from the
 * predecessor's stored hash. Where the revisions leave a gap there is nothing to chain from,
 * so only the gap is reported.
 */
export function chainLinkProblem(
  previous: Pick<ChainedEvent, 'revision' | 'hash'> | undefined,
  event: ChainedEvent,
): string | null {
  const expectedRevision = previous ? previous.revision + 1 : 0;
  if (event.revision !== expectedRevision) return `revision ${event.revision} where ${expectedRevision} was expected`;
  if (!event.hash) return 'no hash stored';
  const previousHash = previous ? previous.hash : GENESIS_HASH;
  if (previousHash === null) return null;
  const expected = chainHash(previousHash, {
    stream: event.streamId,
    revision: event.revision,
    type: event.type,
    data: event.data,
    metadata: event.metadata,
  });
  return expected === event.hash ? null : 'hash does not match the event and its predecessor';
}

/**
 * Checks one stream's events, read in revision order: revisions 0, 1, 2… without gaps,
 * and each stored hash equal to the one recomputed from its predecessor.
 */
export function verifyStream(events: readonly ChainedEvent[]): StreamIntegrity {
  for (const [index, event] of events.entries()) {
    const reason = chainLinkProblem(events[index - 1], event);
    if (reason) return { ok: false, events: events.length, brokenAt: index, reason };
  }
  return { ok: true, events: events.length, brokenAt: null, reason: null };
}
