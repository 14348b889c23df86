import { type FileHandle, open, stat } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { Context } from 'hono';

const types: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.txt': 'text/plain; charset=utf-8',
  '.woff2': 'font/woff2',
  '.pdf': 'application/pdf',
  '.zip': 'application/zip',
  '.log': 'text/plain; charset=utf-8',
};

export const contentTypeFor = (file: string) => types[path.extname(file).toLowerCase()] ?? 'application/octet-stream';

/** A file under `root`, or null (never a path outside it). */
export async function resolveFile(root: string, requestPath: string): Promise<string | null> {
  let decoded: string;
  try {
    decoded = decodeURIComponent(requestPath);
  } catch {
    return null;
  }
  if (decoded.includes('\0')) return null;
  const file = path.resolve(root, `.${path.posix.normalize(`/${decoded}`)}`);
  if (file !== root && !file.startsWith(root + path.sep)) return null;
  try {
    const info = await stat(file);
    return info.isFile() ? file : null;
  } catch {
    return null;
  }
}

/**
 * Streams a file, or answers null when it is gone. The file is opened first and its size
 * read from the open handle, so a file deleted meanwhile (a chat attachment whose message
 * was just deleted) is either served whole or not at all, never a 500 or a cut answer.
 */
export async function sendFile(
  c: Context,
  file: string,
  headers: Record<string, string> = {},
): Promise<Response | null> {
  let handle: FileHandle;
  try {
    handle = await open(file, 'r');
  } catch {
    return null;
  }
  try {
    const info = await handle.stat();
    if (!info.isFile()) {
      await handle.close();
      return null;
    }
    const body =
      c.req.method === 'HEAD'
        ? null
        : (Readable.toWeb(handle.createReadStream({ autoClose: true })) as ReadableStream<Uint8Array>);
    if (!body) await handle.close();
    return new Response(body, {
      headers: {
        'Content-Type': contentTypeFor(file),
        'Content-Length': String(info.size),
        'X-Content-Type-Options': 'nosniff',
        ...headers,
      },
    });
  } catch {
    await handle.close().catch(() => {});
    return null;
  }
}
