/** Chats and uploads for chats.int.spec.ts and messages.int.spec.ts (the tests' private helpers). */
import type pg from 'pg';

/** Events in the store: a refused command must not change this. */
export async function countEvents(pool: pg.Pool): Promise<number> {
  const { rows } = await pool.query<{ n: string }>('select count(*) as n from eventstore.events');
  return Number(rows[0]?.n);
}

export async function createChat(url: string, token: string, body: Record<string, unknown>) {
  const response = await fetch(`${url}/chats`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  if (response.status !== 201) throw new Error(`create chat failed: ${response.status} ${text}`);
  return JSON.parse(text) as { _id: string } & Record<string, any>;
}

export type UploadFile = { name: string; bytes: Uint8Array; type?: string };

/** A multipart message, as a browser's FormData sends it. */
export async function postMultipart(
  url: string,
  token: string,
  path: string,
  files: readonly UploadFile[],
  fields: Record<string, string | string[]> = {},
) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) {
    for (const v of Array.isArray(value) ? value : [value]) form.append(name, v);
  }
  for (const file of files) {
    form.append('attachments', new Blob([file.bytes], { type: file.type ?? 'application/octet-stream' }), file.name);
  }
  const response = await fetch(url + path, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  const text = await response.text();
  let body: any = text;
  try {
    body = JSON.parse(text);
  } catch {
    // keep text
  }
  return { status: response.status, body, headers: response.headers };
}

/** A real 1×1 PNG. */
export const PNG = Uint8Array.from(
  Buffer.from(
    'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
    'base64',
  ),
);

/** The start of a Windows executable: what a renamed .exe still looks like inside. */
export function exeBytes(): Uint8Array {
  const bytes = new Uint8Array(1024);
  bytes.set([0x4d, 0x5a]);
  bytes[0x3c] = 0x80;
  bytes.set([0x50, 0x45, 0, 0], 0x80);
  return bytes;
}
