import type { MiddlewareHandler } from 'hono';
import type { Config } from '../config.js';
import { publicBaseUrl } from './client-address.js';

/** Where profile images live: the server-relative path stored for them (api.md `profileImageURL`). */
export const PROFILE_IMAGE_PREFIX = '/uploads/profile/';

const storedProfileImage = /"(profileImage(?:URL|Url))":"\/uploads\/profile\//g;

/**
 * Profile images are stored as their server-relative path and answered as absolute URLs built
 * from PUBLIC_URL (or the request's own origin), so a moved or proxied server never hands out
 * stale or Host-header-made links. Rewrites only those two keys' values in JSON answers.
 */
export function absoluteProfileImages(config: Pick<Config, 'publicUrl' | 'trustProxy'>): MiddlewareHandler {
  return async (c, next) => {
    await next();
    const type = c.res.headers.get('content-type') ?? '';
    if (!type.startsWith('application/json') || !c.res.body) return;
    const text = await c.res.text();
    if (!text.includes(`"${PROFILE_IMAGE_PREFIX}`)) {
      c.res = new Response(text, c.res);
      return;
    }
    const base = JSON.stringify(publicBaseUrl(c, config)).slice(1, -1);
    const rewritten = text.replace(
      storedProfileImage,
      (_match, key: string) => `"${key}":"${base}${PROFILE_IMAGE_PREFIX}`,
    );
    const headers = new Headers(c.res.headers);
    headers.delete('content-length');
    c.res = new Response(rewritten, { status: c.res.status, statusText: c.res.statusText, headers });
  };
}
