/** Small real files for multipart requests, and a multipart encoder that can also be made to lie. */
import type { RawRequest } from './client.js';

export type FilePart = { filename: string; type: string; bytes: Uint8Array };
export type FormPart = { name: string; value: string } | ({ name: string } & FilePart);

const fromBase64 = (text: string) => new Uint8Array(Buffer.from(text, 'base64'));

/** 1×1 images of each accepted kind: the server tells them apart by their magic bytes. */
export const SAMPLE_IMAGES: readonly FilePart[] = [
  {
    filename: 'pixel.png',
    type: 'image/png',
    bytes: fromBase64(
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
    ),
  },
  {
    filename: 'pixel.gif',
    type: 'image/gif',
    bytes: fromBase64('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7'),
  },
  {
    filename: 'pixel.webp',
    type: 'image/webp',
    bytes: fromBase64('UklGRhoAAABXRUJQVlA4TA0AAAAvAAAAEAcQERGIiP4HAA=='),
  },
  {
    filename: 'pixel.jpg',
    type: 'image/jpeg',
    bytes: fromBase64(
      '/9j/4AAQSkZJRgABAQEASABIAAD/2wBDAP//////////////////////////////////////////////////////////////////////////////////////wgALCAABAAEBAREA/8QAFBABAAAAAAAAAAAAAAAAAAAAAP/aAAgBAQABPxA=',
    ),
  },
];

/** Files that are not accepted images, whatever they claim to be. */
export const SAMPLE_NON_IMAGES: readonly FilePart[] = [
  { filename: 'notes.txt', type: 'text/plain', bytes: new TextEncoder().encode('just some text\n') },
  {
    filename: 'logo.svg',
    type: 'image/svg+xml',
    bytes: new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'),
  },
  { filename: 'page.png', type: 'image/png', bytes: new TextEncoder().encode('<html><body>not a png</body></html>') },
  {
    filename: 'doc.pdf',
    type: 'application/pdf',
    bytes: new TextEncoder().encode('%PDF-1.4\n1 0 obj<<>>endobj\n%%EOF\n'),
  },
  { filename: 'empty.png', type: 'image/png', bytes: new Uint8Array(0) },
  { filename: '../../etc/passwd', type: 'image/png', bytes: SAMPLE_IMAGES[0]!.bytes },
];

export const MULTIPART_BOUNDARY = '----bugtrailfuzz7MA4YWxkTrZu0gW';

export function encodeMultipart(parts: readonly FormPart[], boundary = MULTIPART_BOUNDARY): Uint8Array {
  const chunks: Buffer[] = [];
  for (const part of parts) {
    chunks.push(Buffer.from(`--${boundary}\r\n`));
    if ('value' in part) {
      chunks.push(Buffer.from(`Content-Disposition: form-data; name="${part.name}"\r\n\r\n`));
      chunks.push(Buffer.from(part.value, 'utf8'));
    } else {
      chunks.push(
        Buffer.from(
          `Content-Disposition: form-data; name="${part.name}"; filename="${part.filename}"\r\nContent-Type: ${part.type}\r\n\r\n`,
        ),
      );
      chunks.push(Buffer.from(part.bytes));
    }
    chunks.push(Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return new Uint8Array(Buffer.concat(chunks));
}

export function multipartBody(
  method: string,
  target: string,
  parts: readonly FormPart[],
  headers: Record<string, string> = {},
): RawRequest {
  return {
    method,
    target,
    headers: { ...headers, 'content-type': `multipart/form-data; boundary=${MULTIPART_BOUNDARY}` },
    body: encodeMultipart(parts),
  };
}
