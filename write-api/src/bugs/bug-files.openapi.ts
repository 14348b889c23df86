import { bugFileLimits } from '@bugtrail/domain';
import {
  bugDtoSchema,
  errorAnswer,
  forbiddenAnswer,
  invalidAnswer,
  notFoundAnswer,
  type RouteSpec,
} from '@bugtrail/platform';
import { z } from 'zod';
import { idempotencyHeader, positionHeaders } from '../commands.openapi.js';

/** The bug file commands (bug-files.routes.ts), relative to their mount at /api/bugs. */

const tags = ['bugs'];
const mb = bugFileLimits.fileBytes / (1024 * 1024);
const fileSchema = bugDtoSchema.shape.files.element;
const answerHeaders = { ...positionHeaders, ETag: 'The bug `version`, quoted' };

/** The multipart form, as the route reads it (one `file` part per file). */
const uploadForm = z.object({
  file: z
    .file()
    .describe(
      `A file: repeat the field for more (at most ${bugFileLimits.filesPerUpload}), each at most ${mb} MB. ` +
        'PNG, JPEG, GIF, WebP, PDF, zip or plain text (logs), as the bytes say: the name and type the client ' +
        'sends are not trusted (the name is kept as metadata only).',
    ),
});

export const bugFileOperations: RouteSpec[] = [
  {
    method: 'post',
    path: '/{id}/attachments',
    summary: `Attach files to a bug (multipart, field \`file\`, up to ${bugFileLimits.filesPerUpload} of ${mb} MB)`,
    description:
      "The bytes are stored, then `AttachmentFileAdded` names each file in the bug's history. The answer is the " +
      `bug (its \`files\` grown) and the files just added. A bug holds at most ${bugFileLimits.filesPerBug} files. ` +
      'Each file is fetched from its `url` (`GET /api/bugs/{id}/attachments/{fileId}`) by those who may see the ' +
      'bug. Deleting the bug keeps its files for those who read its history (admins, auditors).',
    tags,
    roles: ['admin', 'tester (own)'],
    params: z.object({ id: z.string().describe('The bug id (`_id`)') }),
    headers: idempotencyHeader,
    body: { schema: uploadForm, contentType: 'multipart/form-data' },
    responses: {
      201: {
        description: 'Attached',
        schema: z.object({ message: z.string(), bug: bugDtoSchema, files: z.array(fileSchema) }),
        headers: answerHeaders,
      },
      400: invalidAnswer,
      403: forbiddenAnswer,
      404: notFoundAnswer,
      413: errorAnswer(`A file over ${mb} MB, or a form over the upload's limit`),
      415: errorAnswer('Not multipart/form-data'),
      429: errorAnswer(
        "The caller's uploads in progress are at their spool quota (ADR 025); `Retry-After` says when to try again",
      ),
      507: errorAnswer(
        'The server is short of disk space for uploads (SPOOL_MIN_FREE_MB); `Retry-After` says when to try again',
      ),
    },
  },
  {
    method: 'delete',
    path: '/{id}/attachments/{fileId}',
    summary: 'Remove a file from a bug',
    description:
      "Appends `AttachmentFileRemoved` (the history keeps the file's name, size and type) and deletes the bytes: " +
      'its url answers 404 from then on. Removing a file already removed answers as the first removal did.',
    tags,
    roles: ['admin', 'tester (own)'],
    params: z.object({
      id: z.string().describe('The bug id (`_id`)'),
      fileId: z.string().describe('The file id (`files[]._id`)'),
    }),
    headers: idempotencyHeader,
    responses: {
      200: {
        description: 'Removed',
        schema: z.object({ message: z.string(), bug: bugDtoSchema }),
        headers: answerHeaders,
      },
      403: forbiddenAnswer,
      404: notFoundAnswer,
    },
  },
];
