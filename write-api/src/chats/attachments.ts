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

/**
 * Reads the multipart body with a hard byte cap before parsing it, so a client that
 * sends no Content-Length (or lies about it) cannot make the server buffer more.
 */
export async function readMultipart(c: Context): Promise<FormData> {
  const tooLarge = () => new HttpError(413, chatMessages.attachmentTooLarge);
  const declared = Number(c.req.header('content-length') ?? 'NaN');
  if (declared > MULTIPART_LIMIT) throw tooLarge();
  const body = c.req.raw.body;
  const chunks: Uint8Array[] = [];
  let total = 0;
  if (body) {
    const reader = body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.byteLength;
      if (total > MULTIPART_LIMIT) {
        await reader.cancel().catch(() => {});
        throw tooLarge();
      }
      chunks.push(value);
    }
  }
  const request = new Request('http://local/', {
    method: 'POST',
    headers: { 'content-type': c.req.header('content-type') ?? '' },
    body: Buffer.concat(chunks),
  });
  try {
    return await request.formData();
  } catch {
    throw new HttpError(400, 'Malformed multipart body');
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
