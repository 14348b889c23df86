import { ValidationError } from '@bugtrail/domain';
import { clientAddress, HttpError, publicBaseUrl } from '@bugtrail/platform';
import { fileTypeFromBuffer } from 'file-type';
import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { RateLimits } from '../auth/rate-limits.js';
import type { WriteApiDeps } from '../deps.js';

export const IMAGE_LIMIT_BYTES = 5 * 1024 * 1024;
/** Room for the multipart framing around a 5 MB image. */
const MULTIPART_OVERHEAD_BYTES = 64 * 1024;

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

  app.post(
    '/upload-image',
    async (c, next) => {
      await limits.countUpload(clientAddress(c, deps.config), uploadMessages.tooMany);
      const type = c.req.header('content-type') ?? '';
      if (!/^multipart\/form-data\s*;/i.test(type)) throw new HttpError(415, uploadMessages.notMultipart);
      await next();
    },
    bodyLimit({
      maxSize: IMAGE_LIMIT_BYTES + MULTIPART_OVERHEAD_BYTES,
      onError: () => {
        throw new HttpError(413, uploadMessages.tooLarge);
      },
    }),
    async (c) => {
      let form: Record<string, unknown>;
      try {
        form = await c.req.parseBody();
      } catch {
        throw new HttpError(400, 'Malformed multipart body');
      }
      const image = form.image;
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
    },
  );

  return app;
}
