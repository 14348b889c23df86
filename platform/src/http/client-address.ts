import { getConnInfo } from '@hono/node-server/conninfo';
import type { Context } from 'hono';
import type { Config } from '../config.js';

type ProxySettings = Pick<Config, 'trustProxy'>;

/**
 * The caller's address. Behind `trustProxy` proxies (each appends the address it sees to
 * X-Forwarded-For, as the shipped nginx does) it is the N-th entry from the right: what the
 * outermost trusted proxy saw. Entries left of it are the client's own claims and never
 * count. Without a proxy, or with fewer entries than proxies (the request did not come
 * through them all), it is the socket's address.
 */
export function clientAddress(c: Context, config: ProxySettings): string {
  const hops = config.trustProxy;
  if (hops > 0) {
    const entries = (c.req.header('x-forwarded-for') ?? '')
      .split(',')
      .map((entry) => entry.trim())
      .filter(Boolean);
    if (entries.length >= hops) return entries[entries.length - hops]!;
  }
  try {
    return getConnInfo(c).remote.address ?? 'unknown';
  } catch {
    return 'unknown';
  }
}

/** Did the request reach us over HTTPS (directly, or as a trusted proxy says)? */
export function cameOverHttps(c: Context, config: ProxySettings): boolean {
  const proto = forwardedProto(c, config);
  if (proto) return proto === 'https';
  return new URL(c.req.url).protocol === 'https:';
}

/**
 * The scheme the trusted proxy says the request came with: the rightmost X-Forwarded-Proto
 * value (the shipped nginx sets the header to its own `$scheme`, so a client's claim never
 * reaches us; a proxy that appends puts its own on the right).
 */
function forwardedProto(c: Context, config: ProxySettings): string | undefined {
  if (config.trustProxy <= 0) return undefined;
  return c.req.header('x-forwarded-proto')?.split(',').at(-1)?.trim().toLowerCase() || undefined;
}

/**
 * The origin (plus path prefix) links handed to clients are built from: PUBLIC_URL when set,
 * else the request's own origin (its Host, which the shipped nginx sets to the host it
 * served) with the forwarded scheme behind a trusted proxy. X-Forwarded-Host is never read:
 * the shipped nginx passes a client's on untouched.
 */
export function publicBaseUrl(c: Context, config: Pick<Config, 'trustProxy' | 'publicUrl'>): string {
  if (config.publicUrl) return config.publicUrl;
  const url = new URL(c.req.url);
  const proto = forwardedProto(c, config);
  if (proto === 'http' || proto === 'https') url.protocol = `${proto}:`;
  return url.origin;
}
