import { getConnInfo } from '@hono/node-server/conninfo';
import type { Context } from 'hono';
import type { Config } from '../config.js';

type ProxySettings = Pick<Config, 'trustProxy'>;

/** The caller's address: the leftmost X-Forwarded-For entry behind a trusted proxy, else the socket's. */
export function clientAddress(c: Context, config: ProxySettings): string {
  if (config.trustProxy) {
    const forwarded = c.req.header('x-forwarded-for')?.split(',')[0]?.trim();
    if (forwarded) return forwarded;
  }
  try {
    return getConnInfo(c).remote.address ?? 'unknown';
  } catch {
    return 'unknown';
  }
}

/** Did the request reach us over HTTPS (directly, or as a trusted proxy says)? */
export function cameOverHttps(c: Context, config: ProxySettings): boolean {
  if (config.trustProxy) {
    const proto = c.req.header('x-forwarded-proto')?.split(',')[0]?.trim().toLowerCase();
    if (proto) return proto === 'https';
  }
  return new URL(c.req.url).protocol === 'https:';
}

/**
 * The origin (plus path prefix) links handed to clients are built from: PUBLIC_URL when set,
 * else the request's own origin; the forwarded scheme and host only behind a trusted proxy.
 */
export function publicBaseUrl(c: Context, config: Pick<Config, 'trustProxy' | 'publicUrl'>): string {
  if (config.publicUrl) return config.publicUrl;
  const url = new URL(c.req.url);
  if (config.trustProxy) {
    const proto = c.req.header('x-forwarded-proto')?.split(',')[0]?.trim();
    const host = c.req.header('x-forwarded-host')?.split(',')[0]?.trim();
    if (proto === 'http' || proto === 'https') url.protocol = `${proto}:`;
    if (host && /^[\w.-]+(:\d+)?$/.test(host)) url.host = host;
  }
  return url.origin;
}
