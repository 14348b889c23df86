import path from 'node:path';
import {
  bugFileMessages,
  bugMessages,
  bugPermissions,
  ForbiddenError,
  isHiddenFrom,
  isPreviewableImage,
  NotFoundError,
} from '@bugtrail/domain';
import { type AuthEnv, normalizeUploadKey, requireAuth } from '@bugtrail/platform';
import { findBugFile } from '@bugtrail/projector';
import { Hono } from 'hono';
import type { ReadApiDeps } from '../deps.js';
import { withProjectRights } from '../projects/project-rights.js';
import { sendFile } from '../static.js';

/**
 * `GET /api/bugs/{id}/attachments/{fileId}`: a file attached to a bug, for those who may
 * see the bug, checked on every fetch against the bug as the read model has it now (an
 * unassigned developer loses the files with the bug). Admins and auditors also reach the
 * files of a deleted bug, whose history they read. A stranger gets the bug's own refusal
 * (403, 404) and never a byte.
 *
 * Why a route and not a signed link (as chat attachments have): bug answers are served
 * from the stored DTO by many reads (detail, lists, dashboards, `?at=`, comparisons), so a
 * link in them would have to be signed afresh in each, and would keep working for a day
 * after someone lost the bug. The url in the DTO is this route, the same for everyone.
 */

/** The answer's type for each type a file may have; anything else is an opaque download. */
const safeTypes: Record<string, string> = {
  'image/png': 'image/png',
  'image/jpeg': 'image/jpeg',
  'image/gif': 'image/gif',
  'image/webp': 'image/webp',
  'application/pdf': 'application/pdf',
  'application/zip': 'application/zip',
  'text/plain': 'text/plain; charset=utf-8',
};

/** RFC 6266: an ASCII fallback (no quotes, backslashes or controls) and the UTF-8 name. */
export function contentDisposition(kind: 'inline' | 'attachment', name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]|["\\%]/g, '_');
  const encoded = encodeURIComponent(name).replace(
    /['()*]/g,
    (ch) => `%${ch.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

export function createBugFileReadRoutes(deps: ReadApiDeps) {
  const app = new Hono<AuthEnv>();
  app.use('*', requireAuth(deps.tokens), withProjectRights(deps));
  const root = path.resolve(deps.uploadsDir);

  app.get('/:id/attachments/:fileId', async (c) => {
    const actor = c.var.actor;
    const id = c.req.param('id');
    const fileId = c.req.param('fileId');
    const row = /^[\w-]{1,100}$/.test(id) ? await findBugFile(deps.db, id, fileId) : null;
    // As GET /api/bugs/{id} and its history answer: who may not see the bug learns nothing of its files.
    if (!row || isHiddenFrom(actor, row) || (row.deleted && !bugPermissions.canViewHistory(actor, row)))
      throw new NotFoundError(bugMessages.notFound);
    if (!bugPermissions.canViewHistory(actor, row)) throw new ForbiddenError(bugMessages.noPermissionToView);
    const key = row.file && row.key ? normalizeUploadKey(row.key) : null;
    if (!row.file || !key?.startsWith('bug/')) throw new NotFoundError(bugFileMessages.notFound);

    // A file's bytes never change under its id: a cached copy is revalidated (permission checked again), never re-sent.
    const etag = `"${row.file._id}"`;
    const headers = {
      'Cache-Control': 'private, no-cache',
      ETag: etag,
      'Content-Type': safeTypes[row.file.contentType] ?? 'application/octet-stream',
      'Content-Disposition': contentDisposition(
        isPreviewableImage(row.file.contentType) ? 'inline' : 'attachment',
        row.file.name,
      ),
      // Opened on its own, the file runs nothing and loads nothing; other sites cannot embed it.
      'Content-Security-Policy': "default-src 'none'; img-src 'self'; sandbox",
      'Cross-Origin-Resource-Policy': 'same-origin',
    };
    if (
      c.req
        .header('if-none-match')
        ?.split(/\s*,\s*/)
        .includes(etag)
    ) {
      return c.body(null, 304, { 'Cache-Control': headers['Cache-Control'], ETag: etag });
    }
    const file = path.join(root, ...key.split('/'));
    if (!file.startsWith(root + path.sep)) throw new NotFoundError(bugFileMessages.notFound);
    const sent = await sendFile(c, file, headers);
    if (!sent) throw new NotFoundError(bugFileMessages.notFound);
    return sent;
  });

  return app;
}
