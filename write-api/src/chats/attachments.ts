import { createReadStream } from 'node:fs';
import { mkdtemp, open, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { chatLimits, chatMessages, ValidationError } from '@bugtrail/domain';
import { HttpError } from '@bugtrail/platform';
import { fileTypeFromBuffer } from 'file-type';
import type { Context } from 'hono';

/** What the magic bytes say a file is; the client's name and type are never trusted. */
const allowedByMagic = new Map<string, string>([
  ['image/jpeg', 'jpg'],
  ['image/png', 'png'],
  ['image/gif', 'gif'],
  ['image/webp', 'webp'],
  ['application/pdf', 'pdf'],
  ['application/zip', 'zip'],
]);

/** The whole multipart body: 5 full files plus room for the text fields and boundaries. */
export const MULTIPART_LIMIT = chatLimits.attachmentsPerMessage * chatLimits.attachmentBytes + 1024 * 1024;

export type CheckedFile = Readonly<{ filename: string; bytes: Uint8Array; mimetype: string; extension: string }>;

export function isMultipart(c: Context): boolean {
  return /^multipart\/form-data\b/i.test(c.req.header('content-type') ?? '');
}

/** One part may carry a full file plus its headers; a larger part is refused as it streams in. */
const PART_LIMIT = chatLimits.attachmentBytes + 64 * 1024;
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
 * `\r\n--boundary` across chunk edges. True once any part has grown beyond `PART_LIMIT`.
 */
function partSizeWatcher(boundary: string) {
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
    return sinceDelimiter > PART_LIMIT;
  };
}

/**
 * Reads the multipart body as a stream with hard byte caps: past `MULTIPART_LIMIT` in all,
 * or one part past an attachment's size, the reader is cancelled and 413 answered at once,
 * with or without (or despite a false) Content-Length. The bytes go to a temporary file, not
 * memory, while they stream in; only a body that arrived whole within the limits is parsed,
 * a few at a time.
 */
export async function readMultipart(c: Context): Promise<FormData> {
  const tooLarge = () => {
    c.header('Connection', 'close');
    return new HttpError(413, chatMessages.attachmentTooLarge);
  };
  const type = c.req.header('content-type') ?? '';
  const declared = Number(c.req.header('content-length') ?? 'NaN');
  if (declared > MULTIPART_LIMIT) throw tooLarge();
  const boundary = /;\s*boundary=(?:"([^"]{1,70})"|([^\s;]{1,70}))/i.exec(type);
  if (!boundary) throw new HttpError(400, 'Malformed multipart body');
  const watch = partSizeWatcher(boundary[1] ?? boundary[2]!);
  const body = c.req.raw.body;
  const dir = await mkdtemp(path.join(os.tmpdir(), 'bugtrail-multipart-'));
  const file = path.join(dir, 'body');
  try {
    const out = await open(file, 'w');
    let total = 0;
    try {
      if (body) {
        const reader = body.getReader();
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          total += value.byteLength;
          if (total > MULTIPART_LIMIT || watch(value)) {
            await reader.cancel().catch(() => {});
            throw tooLarge();
          }
          await out.write(value);
        }
      }
    } finally {
      await out.close();
    }
    return await withParseSlot(async () => {
      const request = new Request('http://local/', {
        method: 'POST',
        headers: { 'content-type': type },
        body: Readable.toWeb(createReadStream(file)) as ReadableStream<Uint8Array>,
        duplex: 'half',
      } as RequestInit);
      try {
        return await request.formData();
      } catch {
        throw new HttpError(400, 'Malformed multipart body');
      }
    });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Valid UTF-8 without NUL bytes: what text and log files look like (they have no magic bytes). */
export function isPlainText(bytes: Uint8Array): boolean {
  if (bytes.includes(0)) return false;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return true;
  } catch {
    return false;
  }
}

/** The client's file name as metadata only: no folders, no control characters. */
export function cleanFilename(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? '';
  const printable = [...base].filter((ch) => {
    const code = ch.codePointAt(0) ?? 0;
    return code >= 0x20 && code !== 0x7f;
  });
  const clean = printable.join('').trim().slice(0, 255);
  return clean || 'attachment';
}

/** Checks count, size and type of every file before any of them is stored. */
export async function checkAttachments(files: readonly File[]): Promise<CheckedFile[]> {
  if (files.length > chatLimits.attachmentsPerMessage) {
    throw ValidationError.field('attachments', chatMessages.tooManyAttachments);
  }
  const checked: CheckedFile[] = [];
  for (const file of files) {
    if (file.size > chatLimits.attachmentBytes) throw new HttpError(413, chatMessages.attachmentTooLarge);
    if (file.size === 0) throw ValidationError.field('attachments', chatMessages.attachmentEmpty);
    const bytes = new Uint8Array(await file.arrayBuffer());
    const filename = cleanFilename(file.name);
    const detected = await fileTypeFromBuffer(bytes);
    if (detected) {
      const extension = allowedByMagic.get(detected.mime);
      if (!extension) throw ValidationError.field('attachments', `${chatMessages.attachmentType} (${filename})`);
      checked.push({ filename, bytes, mimetype: detected.mime, extension });
    } else if (isPlainText(bytes)) {
      const extension = /\.log$/i.test(filename) ? 'log' : 'txt';
      checked.push({ filename, bytes, mimetype: 'text/plain', extension });
    } else {
      throw ValidationError.field('attachments', `${chatMessages.attachmentType} (${filename})`);
    }
  }
  return checked;
}
