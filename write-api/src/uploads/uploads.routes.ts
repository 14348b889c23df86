import { ValidationError } from '@bugtrail/domain';
import { clientAddress, HttpError, publicBaseUrl, readMultipart } from '@bugtrail/platform';
import { fileTypeFromBuffer } from 'file-type';
import { Hono } from 'hono';
import { RateLimits } from '../auth/rate-limits.js';
import type { WriteApiDeps } from '../deps.js';

export const IMAGE_LIMIT_BYTES = 5 * 1024 * 1024;
/** Room for the multipart framing around a 5 MB image. */
const MULTIPART_OVERHEAD_BYTES = 64 * 1024;
/** Room for one part's headers around the image. */
const PART_HEADERS_BYTES = 16 * 1024;

/** The image types accepted, as file-type names them from the file's first bytes. */
const allowed = new Map([
  ['image/jpeg', 'jpg'],
  ['image/png', 'png'],
  ['image/webp', 'webp'],
  ['image/gif', 'gif'],
]);

export const uploadMessages = {
  tooLarge: 'Image is too large (limit 5 MB)',
  notMultipart: 'Content-Type must be multipart/form-data',
  imageRequired: 'Please choose an image file',
  wrongType: 'Only JPEG, PNG, WebP and GIF images are allowed',
  tooMany: 'Too many uploads. Please try again later.',
  uploaded: 'Image uploaded successfully',
} as const;

/**
 * POST /api/auth/upload-image: anonymous (signup uploads before the account exists),
 * multipart field `image`. The type comes from the file's magic bytes, never from the
 * client; the name is the server's; 30 uploads per IP per window.
 */
export function createUploadRoutes(deps: WriteApiDeps) {
  const limits = new RateLimits(deps.pool, deps.config.rateLimits);
  const app = new Hono();

  app.post('/upload-image', async (c) => {
    await limits.countUpload(clientAddress(c, deps.config), uploadMessages.tooMany);
    const type = c.req.header('content-type') ?? '';
    if (!/^multipart\/form-data\s*;/i.test(type)) throw new HttpError(415, uploadMessages.notMultipart);
    // Spooled to disk while it streams in and cut at the limit (413): nothing large is held in memory.
    const form = await readMultipart(
      c,
      {
        bodyBytes: IMAGE_LIMIT_BYTES + MULTIPART_OVERHEAD_BYTES,
        partBytes: IMAGE_LIMIT_BYTES + PART_HEADERS_BYTES,
        tooLarge: uploadMessages.tooLarge,
      },
      deps.spool,
    );
    const image = form.get('image');
    if (!(image instanceof File) || image.size === 0)
      throw ValidationError.field('image', uploadMessages.imageRequired);
    if (image.size > IMAGE_LIMIT_BYTES) throw new HttpError(413, uploadMessages.tooLarge);
    const bytes = new Uint8Array(await image.arrayBuffer());
    const detected = await fileTypeFromBuffer(bytes);
    const extension = detected ? allowed.get(detected.mime) : undefined;
    if (!detected || !extension) throw new HttpError(415, uploadMessages.wrongType);
    const stored = await deps.blobs.put('profile', bytes, detected.mime, extension);
    const imageURL = `${publicBaseUrl(c, deps.config)}/uploads/${stored.key}`;
    return c.json({ message: uploadMessages.uploaded, imageURL, imageUrl: imageURL }, 201);
  });

  return app;
}
