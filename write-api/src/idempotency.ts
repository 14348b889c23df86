import { createHash, randomUUID } from 'node:crypto';
import {
  clientAddress,
  HttpError,
  JSON_BODY_LIMIT,
  type Logger,
  optionalActor,
  readBodyBytes,
} from '@bugtrail/platform';
import type { Context, MiddlewareHandler } from 'hono';
import type { ContentfulStatusCode, StatusCode } from 'hono/utils/http-status';
import { CLAIM_OWNER_SPACE } from './claim-owner.js';
import type { WriteApiDeps } from './deps.js';

/**
 * `Idempotency-Key` at the door (api.md "Bad input and limits"): the first request with a
 * key runs and its answer is kept for 24 h; the same request again gets that answer back
 * with `Idempotent-Replayed: true`; the same key for another method, path or body is 422.
 * The command handler's deterministic event ids (derived from the key) stay as the second
 * line of defence, for whatever slips past this table (a crash between append and answer).
 *
 * - Scope: a key belongs to its caller: the user of a bearer token that verifies, else the
 *   client address (anonymous commands: register, login, upload-image). The same key from
 *   two callers is two requests.
 * - Fingerprint: method, path with query, content type (without a multipart boundary) and
 *   the SHA-256 of the body. Bodies up to 1 MB are read here (counted while they stream in)
 *   and handed on to the route unchanged. A multipart body is hashed with its boundary
 *   blanked out, so a client that re-encodes the same form (browsers pick a fresh random
 *   boundary each time) still sends "the same request". Larger bodies (chat attachments,
 *   images) are not buffered here: a declared Content-Length above 1 MB is fingerprinted by
 *   that length instead of a hash; a body without Content-Length that passes 1 MB by the hash
 *   of its first megabyte; either way the stream reaches the route intact. A multipart body
 *   is hashed over its first 64 kB at most (with its declared length): its route checks who
 *   may send it, and to what, before it reads more (api.md "Second round of safety").
 * - Kept: answers the server decided (2xx, 3xx, 403, 404, 422, …). Not kept, so a retry runs
 *   again: 5xx, and refusals that say nothing was decided yet, or that depend on the moment:
 *   400, 413 and 415 (bad input: a corrected retry may use the same key), 401, 408, 409
 *   (contention or a stale If-Match) and 429.
 * - A second identical request while the first is still running waits for it (polling,
 *   up to the read-your-writes timeout plus 5 s) and then replays its answer; if it is still
 *   running then, 409 "still being processed". A claim whose request died with its process
 *   is taken over at once: the claim names its process (ClaimOwner), whose advisory lock
 *   PostgreSQL drops when the process dies; a claim with no owner is taken over after 5
 *   minutes (Node's own request timeout). The retry then meets the first try's events by
 *   their ids (derived from the key) and answers as it would have.
 */

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
export const IDEMPOTENCY_KEY_MAX_LENGTH = 200;
export const idempotencyMessages = {
  reused: 'Idempotency-Key was already used for a different request',
  tooLong: `Idempotency-Key must be at most ${IDEMPOTENCY_KEY_MAX_LENGTH} characters`,
  inFlight: 'A request with this Idempotency-Key is still being processed; retry shortly',
} as const;

/** Answers a retry should not get back: nothing was decided, or the outcome depends on the moment. */
const NOT_KEPT = new Set([400, 401, 408, 409, 413, 415, 429]);
/** The headers of an answer worth replaying; the rest (correlation id, lag) belong to each request. */
const REPLAYED_HEADERS = ['content-type', 'x-event-position', 'etag', 'location'];
const MAX_STORED_BODY = 1024 * 1024;
/** How much of a multipart body the fingerprint reads (api.md: at most 64 kB before the target is checked). */
const MULTIPART_DIGEST_BYTES = 64 * 1024;
const RETENTION = '24 hours';
/** After this a pending claim is taken to be dead (its process crashed mid-request). */
const CLAIM_LEASE = '5 minutes';
const SWEEP_EVERY_MS = 10 * 60 * 1000;
const TOO_LARGE = 'Request body too large (limit 1 MB)';

type Stored = {
  fingerprint: string;
  status: number | null;
  headers: Record<string, string> | null;
  body: Buffer | null;
};

export function idempotency(deps: WriteApiDeps): MiddlewareHandler {
  const waitMs = deps.config.readYourWritesTimeoutMs + 5000;
  let lastSweep = 0;

  /** Deletes records past their 24 h, at most every few minutes per process (one indexed delete). */
  async function sweepOccasionally(log: Logger): Promise<void> {
    if (Date.now() - lastSweep < SWEEP_EVERY_MS) return;
    lastSweep = Date.now();
    try {
      await deps.pool.query(
        `delete from write_api.idempotency_keys where created_at < now() - interval '${RETENTION}'`,
      );
    } catch (error) {
      log.warn('idempotency sweep failed', { error });
    }
  }

  /** Records the fingerprint atomically; true when this request owns the key now. */
  async function claim(scope: string, key: string, fingerprint: string, id: string): Promise<boolean> {
    // A record past its retention, or a dead claim of the very same request, may be taken over:
    // dead when its owner's lock is gone, or (no owner) when its lease has run out.
    const { rowCount } = await deps.pool.query(
      `insert into write_api.idempotency_keys as k (scope, key, fingerprint, claim, owner)
       values ($1, $2, $3, $4, $5)
       on conflict (scope, key) do update
         set fingerprint = excluded.fingerprint, claim = excluded.claim, owner = excluded.owner,
             created_at = now(), claimed_at = now(), status = null, headers = null, body = null
         where k.created_at < now() - interval '${RETENTION}'
            or (k.status is null and k.fingerprint = excluded.fingerprint
                and (k.claimed_at < now() - interval '${CLAIM_LEASE}'
                     or (k.owner is not null and not exists (
                       select 1 from pg_locks l
                       where l.locktype = 'advisory' and l.database = (select oid from pg_database where datname = current_database())
                         and l.classid::bigint = ${CLAIM_OWNER_SPACE} and l.objid::bigint = k.owner
                         and l.objsubid = 2 and l.granted))))`,
      [scope, key, fingerprint, id, deps.claimOwner?.current ?? null],
    );
    return rowCount === 1;
  }

  async function find(scope: string, key: string): Promise<Stored | null> {
    const { rows } = await deps.pool.query<Stored>(
      `select fingerprint, status, headers, body from write_api.idempotency_keys
       where scope = $1 and key = $2 and created_at >= now() - interval '${RETENTION}'`,
      [scope, key],
    );
    return rows[0] ?? null;
  }

  async function release(scope: string, key: string, id: string): Promise<void> {
    await deps.pool.query('delete from write_api.idempotency_keys where scope = $1 and key = $2 and claim = $3', [
      scope,
      key,
      id,
    ]);
  }

  /** Runs the request as the key's owner and keeps its answer when it is worth replaying. */
  async function run(c: Context, next: () => Promise<void>, scope: string, key: string, id: string) {
    const log: Logger = c.get('log') ?? deps.logger;
    try {
      await next();
    } catch (error) {
      await release(scope, key, id).catch(() => {});
      throw error;
    }
    try {
      const res = c.res;
      // Answers marked no-store carry secrets (tokens, MFA secrets, recovery codes): never kept at rest.
      const isSecret = /\bno-store\b/i.test(res.headers.get('cache-control') ?? '');
      const body =
        isSecret || NOT_KEPT.has(res.status) || res.status >= 500 ? null : Buffer.from(await res.clone().arrayBuffer());
      if (!body || body.byteLength > MAX_STORED_BODY) {
        await release(scope, key, id);
        return;
      }
      const headers: Record<string, string> = {};
      for (const name of REPLAYED_HEADERS) {
        const value = res.headers.get(name);
        if (value !== null) headers[name] = value;
      }
      await deps.pool.query(
        `update write_api.idempotency_keys set status = $4, headers = $5, body = $6
         where scope = $1 and key = $2 and claim = $3`,
        [scope, key, id, res.status, JSON.stringify(headers), body],
      );
    } catch (error) {
      // The request has been handled: answer it. A retry re-runs (or waits out the lease).
      log.error('could not keep the answer of an idempotent request', { error });
      await release(scope, key, id).catch(() => {});
    }
  }

  return async (c, next) => {
    if (SAFE_METHODS.has(c.req.method)) return next();
    const key = c.req.header('idempotency-key')?.trim();
    if (!key) return next();
    if (key.length > IDEMPOTENCY_KEY_MAX_LENGTH) throw new HttpError(400, idempotencyMessages.tooLong);
    const scope = await callerScope(c, deps);
    const fingerprint = await fingerprintOf(c);
    await sweepOccasionally(c.get('log') ?? deps.logger);

    const deadline = Date.now() + waitMs;
    for (let pause = 25; ; pause = Math.min(pause * 2, 250)) {
      const id = randomUUID();
      if (await claim(scope, key, fingerprint, id)) {
        await run(c, next, scope, key, id);
        return;
      }
      const stored = await find(scope, key);
      // Gone between the two statements (its request failed and let go): try to claim again.
      if (!stored) continue;
      if (stored.fingerprint !== fingerprint) throw new HttpError(422, idempotencyMessages.reused);
      if (stored.status !== null) return replay(c, stored);
      if (Date.now() >= deadline) throw new HttpError(409, idempotencyMessages.inFlight);
      await new Promise((resolve) => setTimeout(resolve, pause));
    }
  };
}

/** Whose key it is: the verified user, else the client's address. */
async function callerScope(c: Context, deps: WriteApiDeps): Promise<string> {
  // A bad token is answered 401 by the route (never kept); until then it is anonymous.
  const actor = await optionalActor(c, deps.tokens);
  return actor ? `user:${actor.id}` : `anon:${clientAddress(c, deps.config)}`;
}

/** What makes two requests "the same": see the module header. */
async function fingerprintOf(c: Context): Promise<string> {
  const url = new URL(c.req.url);
  const type = c.req.header('content-type') ?? '';
  const boundary = /;\s*boundary=(?:"([^"]{1,70})"|([^\s;]{1,70}))/i.exec(type);
  const mediaType = type
    .split(';')
    .map((part) => part.trim().toLowerCase())
    .filter((part) => part && !part.startsWith('boundary='))
    .join(';');
  const body = await bodyDigest(c, boundary ? (boundary[1] ?? boundary[2]!) : null);
  return createHash('sha256')
    .update(JSON.stringify([c.req.method, url.pathname + url.search, mediaType, body]))
    .digest('hex');
}

/**
 * The body's digest, leaving the body readable for the route: bytes read here are put back
 * as a new request body (as hono's own bodyLimit does).
 */
async function bodyDigest(c: Context, boundary: string | null): Promise<string> {
  const declared = c.req.header('content-length');
  if (declared !== undefined && Number(declared) > JSON_BODY_LIMIT) return `length:${Number(declared)}`;
  const raw = c.req.raw;
  if (!raw.body) return `sha256:${hashBody(new Uint8Array(0), boundary)}`;
  if (raw.bodyUsed) {
    // Read before us through hono's cache: the route reads that cache too.
    return `sha256:${hashBody(await readBodyBytes(c, JSON_BODY_LIMIT, TOO_LARGE), boundary)}`;
  }
  // A multipart body's route reads no more than this before it knows the upload may go ahead.
  const window = boundary === null ? JSON_BODY_LIMIT : MULTIPART_DIGEST_BYTES;
  const reader = raw.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) {
      const bytes = Buffer.concat(chunks);
      c.req.raw = new Request(raw, { body: bytes });
      return `sha256:${hashBody(bytes, boundary)}`;
    }
    chunks.push(value);
    total += value.byteLength;
    if (total >= window) {
      // Past the window: hash its bytes, hand on the rest as it comes.
      const prefix = Buffer.concat(chunks);
      c.req.raw = new Request(raw, { body: replayThenContinue(chunks, reader), duplex: 'half' } as RequestInit);
      return `prefix-sha256:${declared ?? ''}:${hashBody(prefix.subarray(0, window), boundary)}`;
    }
  }
}

/** A stream of the chunks already read, then the rest of the original reader. */
function replayThenContinue(
  chunks: Uint8Array[],
  reader: ReadableStreamDefaultReader<Uint8Array>,
): ReadableStream<Uint8Array> {
  const pending = [...chunks];
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = pending.shift();
      if (next) return controller.enqueue(next);
      const { done, value } = await reader.read();
      if (done) controller.close();
      else controller.enqueue(value);
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  });
}

/** SHA-256 (hex) of the body, with a multipart boundary blanked out wherever it delimits. */
function hashBody(bytes: Uint8Array, boundary: string | null): string {
  const hash = createHash('sha256');
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (boundary) {
    const delimiter = Buffer.from(`--${boundary}`, 'latin1');
    let from = 0;
    for (let at = buffer.indexOf(delimiter); at !== -1; at = buffer.indexOf(delimiter, from)) {
      hash.update(buffer.subarray(from, at)).update('--\0boundary\0');
      from = at + delimiter.length;
    }
    return hash.update(buffer.subarray(from)).digest('hex');
  }
  return hash.update(buffer).digest('hex');
}

/** The kept answer again, marked as a replay. */
function replay(c: Context, stored: Stored): Response {
  for (const [name, value] of Object.entries(stored.headers ?? {})) c.header(name, value);
  c.header('Idempotent-Replayed', 'true');
  if (!stored.body || stored.body.byteLength === 0) return c.body(null, stored.status as StatusCode);
  return c.body(new Uint8Array(stored.body), stored.status as ContentfulStatusCode);
}
