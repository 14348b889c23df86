import { notFoundAnswer, type RouteSpec, UPLOAD_LINK_SECONDS } from '@bugtrail/platform';
import { z } from 'zod';

/** The uploaded files (uploads.routes.ts), relative to their mount at /uploads. */

const tags = ['uploads'];
const keyParams = z.object({
  year: z.string().describe('Four digits, as in the stored key'),
  month: z.string().describe('Two digits, as in the stored key'),
  file: z.string().describe('A server-made name: a UUID and an extension'),
});
const fileTypes =
  'The file, with its stored type; anything but a PNG, JPEG, GIF or WebP image has `Content-Disposition: attachment`';
const fileNotFound = {
  ...notFoundAnswer,
  description: 'No such file, or (chat attachments) the link is unsigned, expired, forged or signed for another file',
};

export const uploadOperations: RouteSpec[] = [
  {
    method: 'get',
    path: '/chat/{year}/{month}/{file}',
    summary: 'A chat attachment, through the signed link a message carries',
    description:
      "Only chat members reach these: a message's `attachments[].path` is " +
      '`/uploads/chat/<yyyy>/<mm>/<file>?exp=<unix seconds>&sig=<signature>`, signed afresh whenever the message ' +
      `is answered and valid for ${UPLOAD_LINK_SECONDS / 3600} hours. The link is the credential: no Authorization ` +
      'header is needed. `Cache-Control: private, max-age` never exceeds what is left of its validity. ' +
      'A deleted message or chat takes its files with it.',
    tags,
    auth: false,
    params: keyParams,
    query: z.object({
      exp: z.string().describe('Unix seconds after which the link no longer works'),
      sig: z.string().describe('HMAC-SHA256 of the file key and `exp` (base64url), made by the server'),
    }),
    responses: {
      200: { description: fileTypes, contentType: 'application/octet-stream' },
      404: fileNotFound,
    },
  },
  {
    method: 'get',
    path: '/profile/{year}/{month}/{file}',
    summary: 'A profile image (public: shown on signup, before an account exists)',
    tags,
    auth: false,
    params: keyParams,
    responses: {
      200: { description: fileTypes, contentType: 'application/octet-stream' },
      404: { ...notFoundAnswer, description: 'No such file' },
    },
  },
];
