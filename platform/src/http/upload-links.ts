import type { MiddlewareHandler } from 'hono';
import type { Config } from '../config.js';
import { publicBaseUrl } from './client-address.js';

/** Where profile images live: the server-relative path stored for them (api.md `profileImageURL`). */
export const PROFILE_IMAGE_PREFIX = '/uploads/profile/';

/** Marks an answer whose JSON text this middleware rendered (removed before it leaves). */
const RENDERED = 'x-bugtrail-rendered-json';

const storedProfileImage = /"(profileImage(?:URL|Url))":"\/uploads\/profile\//g;

/**
 * Profile images are stored as their server-relative path and answered as absolute URLs built
 * from PUBLIC_URL (or the request's own origin), so a moved or proxied server never hands out
 * stale or Host-header-made links. Rewrites only those two keys' values in JSON answers.
 */
export function absoluteProfileImages(config: Pick<Config, 'publicUrl' | 'trustProxy'>): MiddlewareHandler {
  return async (c, next) => {
    // Answers made by c.json keep their text here, so it is rewritten without reading the body back.
    let rendered: string | undefined;
    c.json = ((object: unknown, arg?: never, headers?: Record<string, string>) => {
      rendered = JSON.stringify(object);
      return c.body(rendered, arg, { 'Content-Type': 'application/json', [RENDERED]: '1', ...headers });
    }) as unknown as typeof c.json;
    await next();
    const type = c.res.headers.get('content-type') ?? '';
    if (!type.startsWith('application/json') || !c.res.body) return;
    let text: string;
    if (c.res.headers.has(RENDERED) && rendered !== undefined) {
      c.res.headers.delete(RENDERED);
      text = rendered;
      if (!text.includes(`"${PROFILE_IMAGE_PREFIX}`)) return;
    } else {
      // A body made otherwise (an idempotent replay): read it back.
      text = await c.res.text();
      if (!text.includes(`"${PROFILE_IMAGE_PREFIX}`)) {
        c.res = new Response(text, c.res);
        return;
      }
    }
    const base = JSON.stringify(publicBaseUrl(c, config)).slice(1, -1);
    const rewritten = text.replace(
      storedProfileImage,
      (_match, key: string) => `"${key}":"${base}${PROFILE_IMAGE_PREFIX}`,
    );
    const headers = new Headers(c.res.headers);
    headers.delete('content-length');
    headers.delete(RENDERED);
    c.res = new Response(rewritten, { status: c.res.status, statusText: c.res.statusText, headers });
  };
}
