import { errorAnswer, invalidAnswer, type RouteSpec } from '@bugtrail/platform';
import { z } from 'zod';
import { IMAGE_LIMIT_BYTES } from './uploads.routes.js';

/**
 * POST /api/auth/upload-image (uploads.routes.ts), relative to its mount at /api/auth.
 * The route reads a multipart form by hand (the type comes from the file's magic
 * bytes), so the form is described here: there is no validator schema to reuse.
 */

const imageForm = z.object({
  image: z.file().max(IMAGE_LIMIT_BYTES).describe('The image file: JPEG, PNG, WebP or GIF, at most 5 MB'),
});

export const uploadOperations: RouteSpec[] = [
  {
    method: 'post',
    path: '/upload-image',
    summary: 'Upload a profile image (JPEG, PNG, WebP, GIF; at most 5 MB; no token needed)',
    tags: ['auth'],
    auth: false,
    body: { schema: imageForm, contentType: 'multipart/form-data' },
    responses: {
      201: {
        description: 'Stored: `imageURL` is an absolute URL under /uploads/ (also as `imageUrl`)',
        schema: z.object({ message: z.string(), imageURL: z.string(), imageUrl: z.string() }),
      },
      400: invalidAnswer,
      413: errorAnswer('Over 5 MB'),
      415: errorAnswer('Not an image, or not multipart/form-data'),
      429: errorAnswer('Too many uploads, or too many bytes being uploaded from this address at once'),
      507: errorAnswer(
        'The server is short of disk space for uploads (SPOOL_MIN_FREE_MB); `Retry-After` says when to try again',
      ),
    },
  },
];
