import { createHmac, timingSafeEqual } from 'node:crypto';
import type pg from 'pg';
import { generateTokenKey, getOrCreateSecret } from './secrets.js';

/**
 * Signed links to uploaded files that only some people may fetch (chat attachments).
 * write-api and read-api sign a stored file key when they answer a message, read-api
 * checks the link when the file is fetched: `/uploads/<key>?exp=<unix seconds>&sig=<hmac>`.
 * The link is the credential (an <img src> carries no bearer token), so it is short-lived
 * and names one file: HMAC-SHA256 over the key and the expiry, keyed by
 * UPLOADS_SIGNING_SECRET or a secret generated once and kept in the database, so every
 * replica of both servers agrees.
 *
 * Events keep the unsigned path (`/uploads/<key>`), never a signed link: links are made
 * afresh whenever a message is answered.
 */

/** How long a link stays valid. */
export const UPLOAD_LINK_SECONDS = 24 * 60 * 60;
/**
 * Expiry times are rounded down to this step, so the same file read again within it gets
 * the same link and the browser's cache still serves it (a new `sig` is a new URL).
 */
const EXPIRY_STEP_SECONDS = 5 * 60;
/** Replicas' clocks may differ by this much: a link may expire this much beyond `UPLOAD_LINK_SECONDS`. */
const CLOCK_SKEW_SECONDS = 5 * 60;
/** The row in platform.secrets holding the generated key. */
export const UPLOADS_SIGNING_SECRET_NAME = 'uploads-signing-key';
/** Areas anyone may fetch: profile images are shown on signup, before an account exists. */
const PUBLIC_AREAS: ReadonlySet<string> = new Set(['profile']);

/**
 * A file key from the part of a URL path after `/uploads/` (percent-encoded as it came):
 * decoded once, no empty, `.` or `..` segments, no backslash or NUL. Null when it is not
 * a plain key, so a path can never name one area and reach another (`profile/..%2Fchat/x`).
 */
export function normalizeUploadKey(encoded: string): string | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(encoded);
  } catch {
    return null;
  }
  if (!decoded || /[\0\\?#]/.test(decoded)) return null;
  const segments = decoded.split('/');
  if (segments.some((s) => s === '' || s === '.' || s === '..')) return null;
  return decoded;
}

/**
 * The file key a stored attachment path names: `/uploads/<key>` (what events hold), the
 * same as an absolute URL, or a bare key. Any query (an old signature) is ignored. Null
 * when it names no uploaded file.
 */
export function uploadKeyOf(stored: string): string | null {
  let pathname = stored;
  if (/^https?:\/\//i.test(stored)) {
    try {
      pathname = new URL(stored).pathname;
    } catch {
      return null;
    }
  }
  pathname = pathname.replace(/[?#].*$/s, '');
  const relative = pathname.startsWith('/uploads/') ? pathname.slice('/uploads/'.length) : pathname;
  if (relative.startsWith('/')) return null;
  return normalizeUploadKey(relative);
}

/** Whether anyone may fetch the file without a signed link. */
export function isPublicUpload(key: string): boolean {
  return PUBLIC_AREAS.has(key.split('/', 1)[0] ?? '');
}

const encodeKey = (key: string) => key.split('/').map(encodeURIComponent).join('/');

/** The HMAC of one file key and expiry (base64url). */
export function uploadSignature(secret: string, key: string, exp: number): string {
  return createHmac('sha256', secret).update(`${key}\n${exp}`).digest('base64url');
}

/** `/uploads/<key>?exp=…&sig=…`, valid until `exp` (unix seconds). */
export function signedUploadPath(secret: string, key: string, exp: number): string {
  return `/uploads/${encodeKey(key)}?exp=${exp}&sig=${uploadSignature(secret, key, exp)}`;
}

/** The expiry of a link made at `now`: at most `UPLOAD_LINK_SECONDS` ahead, rounded down to a step. */
export function uploadLinkExpiry(now: Date): number {
  const until = Math.floor(now.getTime() / 1000) + UPLOAD_LINK_SECONDS;
  return until - (until % EXPIRY_STEP_SECONDS);
}

/**
 * The seconds a link for `key` stays valid, or null when it is unsigned, expired,
 * forged, made for another file, or reaches further ahead than any link this code makes.
 * The signatures are compared in constant time.
 */
export function checkUploadSignature(
  secret: string,
  key: string,
  exp: string | undefined,
  sig: string | undefined,
  now: Date,
): number | null {
  if (!exp || !sig || !/^\d{1,12}$/.test(exp) || !/^[A-Za-z0-9_-]{1,100}$/.test(sig)) return null;
  const expiry = Number(exp);
  const nowSeconds = Math.floor(now.getTime() / 1000);
  const remaining = expiry - nowSeconds;
  if (remaining <= 0 || remaining > UPLOAD_LINK_SECONDS + CLOCK_SKEW_SECONDS) return null;
  const expected = Buffer.from(uploadSignature(secret, key, expiry));
  const given = Buffer.from(sig);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  return remaining;
}

/** Signing and checking with the deployment's secret, for the servers. */
export type UploadLinks = Readonly<{
  /** A stored path (or key) as a link valid from now; a path that names no upload is answered as it is. */
  sign(stored: string): Promise<string>;
  /** The same attachments with freshly signed paths. */
  signAttachments<T extends Readonly<{ path: string }>>(attachments: readonly T[]): Promise<T[]>;
  /** See `checkUploadSignature`. */
  check(key: string, exp: string | undefined, sig: string | undefined): Promise<number | null>;
}>;

export function createUploadLinks(options: {
  /** UPLOADS_SIGNING_SECRET; when unset, the one generated and kept in the database. */
  secret: string | undefined;
  pool: pg.Pool;
  now?: () => Date;
}): UploadLinks {
  const now = options.now ?? (() => new Date());
  let secret: Promise<string> | null = null;
  // Read (or made) once per process; a failed read is tried again on the next request.
  const getSecret = () => {
    if (options.secret) return Promise.resolve(options.secret);
    secret ??= getOrCreateSecret(options.pool, UPLOADS_SIGNING_SECRET_NAME, generateTokenKey).catch((error) => {
      secret = null;
      throw error;
    });
    return secret;
  };
  const signWith = (key: string | null, stored: string, value: string, exp: number) =>
    key ? signedUploadPath(value, key, exp) : stored;
  return {
    async sign(stored) {
      const key = uploadKeyOf(stored);
      return signWith(key, stored, await getSecret(), uploadLinkExpiry(now()));
    },
    async signAttachments(attachments) {
      if (attachments.length === 0) return [];
      const value = await getSecret();
      const exp = uploadLinkExpiry(now());
      return attachments.map((a) => ({ ...a, path: signWith(uploadKeyOf(a.path), a.path, value, exp) }));
    },
    async check(key, exp, sig) {
      if (!exp || !sig) return null;
      return checkUploadSignature(await getSecret(), key, exp, sig, now());
    },
  };
}
