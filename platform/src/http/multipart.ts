import { createReadStream } from 'node:fs';
import { Readable } from 'node:stream';
import type { Context } from 'hono';
import { HttpError } from './errors.js';
import type { UploadSpool } from './spool.js';

export type MultipartLimits = Readonly<{
  /** The whole body, framing included. */
  bodyBytes: number;
  /** One part with its headers. */
  partBytes: number;
  /** The 413's message. */
  tooLarge: string;
}>;

/** Multipart bodies parsed at once: the parse holds a body in memory, the spooling before it does not. */
const PARSE_CONCURRENCY = 2;

let parsing = 0;
const waiting: Array<() => void> = [];
async function withParseSlot<T>(work: () => Promise<T>): Promise<T> {
  if (parsing >= PARSE_CONCURRENCY) await new Promise<void>((resolve) => waiting.push(resolve));
  else parsing++;
  try {
    return await work();
  } finally {
    const next = waiting.shift();
    if (next) next();
    else parsing--;
  }
}

/**
 * Counts the bytes of each part as the body streams past, looking for the delimiter
 * `\r\n--boundary` across chunk edges. True once any part has grown beyond `partLimit`.
 */
function partSizeWatcher(boundary: string, partLimit: number) {
  const delimiter = Buffer.from(`\r\n--${boundary}`);
  let tail = Buffer.alloc(0);
  let sinceDelimiter = 2; // the body starts with "--boundary", as if "\r\n" came before it
  return (chunk: Uint8Array): boolean => {
    const window = Buffer.concat([tail, chunk]);
    let from = 0;
    for (;;) {
      const at = window.indexOf(delimiter, from);
      if (at === -1) break;
      from = at + delimiter.length;
      sinceDelimiter = 0;
    }
    // Bytes after the last delimiter seen (or the whole chunk when none was).
    sinceDelimiter += from > 0 ? window.length - from : chunk.byteLength;
    tail = window.subarray(Math.max(from, window.length - (delimiter.length - 1)));
    return sinceDelimiter > partLimit;
  };
}

/**
 * Reads the multipart body as a stream with hard byte caps: past `bodyBytes` in all,
 * or one part past `partBytes`, the reader is cancelled and 413 answered at once,
 * with or without (or despite a false) Content-Length. The bytes go to a file in the spool,
 * not memory, while they stream in; only a body that arrived whole within the limits is
 * parsed, a few at a time. An aborted or refused body leaves no file behind.
 */
export async function readMultipart(c: Context, limits: MultipartLimits, spool: UploadSpool): Promise<FormData> {
  const type = c.req.header('content-type') ?? '';
  const declared = Number(c.req.header('content-length') ?? 'NaN');
  if (declared > limits.bodyBytes) {
    c.header('Connection', 'close');
    throw new HttpError(413, limits.tooLarge);
  }
  const boundary = /;\s*boundary=(?:"([^"]{1,70})"|([^\s;]{1,70}))/i.exec(type);
  if (!boundary) throw new HttpError(400, 'Malformed multipart body');
  const watch = partSizeWatcher(boundary[1] ?? boundary[2]!, limits.partBytes);
  const file = await spool.spool(c, {
    limit: limits.bodyBytes,
    tooLarge: limits.tooLarge,
    inspect: watch,
    prefix: 'bugtrail-multipart-',
  });
  try {
    return await withParseSlot(async () => {
      const stream = createReadStream(file.path);
      const request = new Request('http://local/', {
        method: 'POST',
        headers: { 'content-type': type },
        // toWeb listens for the file stream's errors and hands them to the parse (400 below).
        body: Readable.toWeb(stream) as ReadableStream<Uint8Array>,
        duplex: 'half',
      } as RequestInit);
      try {
        return await request.formData();
      } catch {
        throw new HttpError(400, 'Malformed multipart body');
      } finally {
        // A parse that gave up early leaves the rest unread: close the file now, not at GC.
        stream.destroy();
      }
    });
  } finally {
    await file.remove();
  }
}
