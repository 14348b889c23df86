import { chatLimits, chatMessages, ValidationError } from '@bugtrail/domain';
import { HttpError, readMultipart, type UploadSpool } from '@bugtrail/platform';
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

/** The message form, spooled to disk as it streams in, with the chat's caps (413 past them). */
export function readAttachmentsForm(c: Context, spool: UploadSpool): Promise<FormData> {
  return readMultipart(
    c,
    { bodyBytes: MULTIPART_LIMIT, partBytes: PART_LIMIT, tooLarge: chatMessages.attachmentTooLarge },
    spool,
  );
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
