import path from 'node:path';
import { createUploadLinks, isPublicUpload, normalizeUploadKey } from '@bugtrail/platform';
import { type Context, Hono } from 'hono';
import type { ReadApiDeps } from '../deps.js';
import { sendFile } from '../static.js';

/** A year of caching for public files: their names are server-made and never reused. */
const PUBLIC_CACHE = 'private, max-age=31536000, immutable';
/** Only images a browser renders harmlessly open inline; anything else is a download. */
const SAFE_IMAGE = /\.(png|jpe?g|gif|webp)$/i;

/**
 * GET /uploads/<key>: files the blob store keeps under DATA_DIR/uploads. Profile images
 * are public (shown on signup, before an account exists); every other file (chat
 * attachments) only through a link write-api or read-api signed when it answered the
 * message to a member (platform's uploads-signing). Unsigned, expired, forged or another
 * file's link: 404, the same as a file that does not exist, so a link reveals nothing.
 *
 * Keys are always `<area>/<yyyy>/<mm>/<file>` (FolderBlobStore), which are the routes
 * declared here and in uploads.openapi.ts.
 */
export function createUploadsRoutes(deps: ReadApiDeps, options: { now?: () => Date } = {}) {
  const links = createUploadLinks({
    secret: deps.config.uploadsSigningSecret,
    pool: deps.pool,
    ...(options.now ? { now: options.now } : {}),
  });
  const notFound = (c: Context) => c.json({ message: 'File not found' }, 404);
  const root = path.resolve(deps.uploadsDir);

  const serve = async (c: Context) => {
    // The key from the URL as it came (Hono's params are decoded once more), checked
    // before anything else, so one area's path can never reach another's file.
    const encoded = new URL(c.req.url).pathname.replace(/^\/uploads\//, '');
    const key = normalizeUploadKey(encoded);
    if (!key) return notFound(c);
    let cacheControl = PUBLIC_CACHE;
    if (!isPublicUpload(key)) {
      const remaining = await links.check(key, c.req.query('exp'), c.req.query('sig'));
      if (remaining === null) return notFound(c);
      // Never longer than the link is valid; never immutable (the file goes when its message does).
      cacheControl = `private, max-age=${remaining}`;
    }
    const file = path.join(root, ...key.split('/'));
    if (!file.startsWith(root + path.sep)) return notFound(c);
    const sent = await sendFile(c, file, {
      'Cache-Control': cacheControl,
      ...(SAFE_IMAGE.test(key) ? {} : { 'Content-Disposition': 'attachment' }),
    });
    return sent ?? notFound(c);
  };

  const app = new Hono();
  app.get('/chat/:year/:month/:file', serve);
  app.get('/profile/:year/:month/:file', serve);
  return app;
}
