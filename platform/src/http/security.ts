import type { Context } from 'hono';
import { createMiddleware } from 'hono/factory';
import type { Config } from '../config.js';
import { cameOverHttps } from './client-address.js';

/**
 * The headers every answer of both apps carries (api.md, "Cross-origin clients" and
 * "Security headers"). Written plainly rather than with Hono's `cors`/`secureHeaders`:
 * the latter adds headers api.md does not ask for (Cross-Origin-Resource-Policy: same-origin
 * would stop other origins showing uploaded images) and sends HSTS whatever the scheme.
 *
 * Both apps mount it, because the split by method sends every OPTIONS to write-api,
 * read paths' preflights included, while read-api serves the HTML and the uploads.
 */
export type SecuritySettings = Pick<Config, 'corsOrigins' | 'trustProxy' | 'publicUrl'>;

/** The paths browsers on other origins may call: the API, the chat paths and uploads. */
const CROSS_ORIGIN_PATH = /^\/(?:api|chats|users|uploads)(?:\/|$)/;

export const CORS_ALLOW_METHODS = 'GET, HEAD, POST, PUT, PATCH, DELETE';
export const CORS_ALLOW_HEADERS =
  'Authorization, Content-Type, Idempotency-Key, If-Match, X-Min-Position, Last-Event-ID, X-Correlation-Id';
export const CORS_EXPOSE_HEADERS =
  'X-Event-Position, X-Read-Model-Lag, ETag, Content-Disposition, Retry-After, Idempotent-Replayed, X-Next-Cursor';
const PREFLIGHT_MAX_AGE_SECONDS = '600';
const HSTS = 'max-age=31536000';

export function isCrossOriginPath(path: string): boolean {
  return CROSS_ORIGIN_PATH.test(path);
}

/**
 * The `Access-Control-Allow-Origin` value for a request's Origin, or null when it is not
 * allowed. The request's own origin is echoed (so the answer names who it is for); only a
 * request without Origin under `*` gets the literal `*`. Never credentials, so echoing is safe.
 */
export function allowedOrigin(origin: string | undefined, allowed: SecuritySettings['corsOrigins']): string | null {
  if (allowed === '*') return origin || '*';
  if (!origin) return null;
  const wanted = origin.toLowerCase();
  return allowed.some((entry) => entry.toLowerCase() === wanted) ? origin : null;
}

/**
 * The policy for the web app's HTML: everything from this origin, nothing inline. Images
 * may also be data:/blob: (previews of a picked file) and, when links are built from
 * PUBLIC_URL on another origin, uploads from there.
 */
export function contentSecurityPolicy(publicUrl?: string): string {
  const publicOrigin = publicUrl ? new URL(publicUrl).origin : null;
  const images = ["'self'", 'data:', 'blob:', ...(publicOrigin ? [publicOrigin] : [])];
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    `img-src ${[...new Set(images)].join(' ')}`,
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** CORS on the API paths (preflights answered here, 204) and the security headers on every answer. */
export function httpSecurity(settings: SecuritySettings) {
  const policy = contentSecurityPolicy(settings.publicUrl);
  return createMiddleware(async (c, next) => {
    const isCrossOrigin = isCrossOriginPath(c.req.path);
    const origin = isCrossOrigin ? allowedOrigin(c.req.header('origin'), settings.corsOrigins) : null;
    const headers: Record<string, string> = {};
    if (isCrossOrigin && c.req.method === 'OPTIONS') {
      c.res = new Response(null, { status: 204 });
      if (origin) {
        headers['Access-Control-Allow-Origin'] = origin;
        headers['Access-Control-Allow-Methods'] = CORS_ALLOW_METHODS;
        headers['Access-Control-Allow-Headers'] = CORS_ALLOW_HEADERS;
        headers['Access-Control-Max-Age'] = PREFLIGHT_MAX_AGE_SECONDS;
      }
    } else {
      await next();
      if (origin) {
        headers['Access-Control-Allow-Origin'] = origin;
        headers['Access-Control-Expose-Headers'] = CORS_EXPOSE_HEADERS;
      }
    }
    headers['X-Content-Type-Options'] = 'nosniff';
    headers['Referrer-Policy'] = 'strict-origin-when-cross-origin';
    if (c.res.headers.get('content-type')?.toLowerCase().includes('text/html')) {
      // A route that set its own policy (a stricter one for a file, say) keeps it.
      if (!c.res.headers.has('content-security-policy')) headers['Content-Security-Policy'] = policy;
      headers['X-Frame-Options'] = 'DENY';
    }
    if (cameOverHttps(c, settings)) headers['Strict-Transport-Security'] = HSTS;
    decorate(c, headers, isCrossOrigin);
  });
}

/** Sets the headers on the answer in one go (a copy of it when its headers are immutable). */
function decorate(c: Context, headers: Record<string, string>, isCrossOrigin: boolean): void {
  const apply = (target: Headers) => {
    for (const [name, value] of Object.entries(headers)) target.set(name, value);
    if (!isCrossOrigin) return;
    // Never credentials: the API takes bearer tokens only.
    target.delete('Access-Control-Allow-Credentials');
    // The answer depends on the Origin, so shared caches must key on it.
    const vary = target.get('vary');
    const names = vary?.split(',').map((name) => name.trim().toLowerCase()) ?? [];
    if (!names.includes('origin') && !names.includes('*')) target.set('Vary', vary ? `${vary}, Origin` : 'Origin');
  };
  try {
    apply(c.res.headers);
  } catch {
    // A Response from fetch() (a proxied answer) has immutable headers.
    const copy = new Response(c.res.body, c.res);
    apply(copy.headers);
    c.res = copy;
  }
}
