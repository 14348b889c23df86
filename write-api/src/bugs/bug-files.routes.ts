import { randomUUID } from 'node:crypto';
import {
  type BugCommand,
  type BugFileState,
  type BugState,
  bugDecider,
  bugFileLimits,
  bugFileMessages,
  findBugFile,
  isEvent,
  NotFoundError,
  type ReportedBug,
  streams,
  toBugFileDto,
  ValidationError,
} from '@bugtrail/domain';
import { deriveEventId } from '@bugtrail/eventstore';
import { type AuthEnv, HttpError, readMultipart, requireAuth } from '@bugtrail/platform';
import { fileTypeFromBuffer } from 'file-type';
import { type Context, Hono } from 'hono';
import { cleanFilename, isMultipart, isPlainText } from '../chats/attachments.js';
import { commandContext, settle, type WriteApiDeps } from '../deps.js';
import { withProjectRights } from '../projects/project-rights.js';
import { bugAnswer, bugIdParam, objectIdPattern } from './bug-input.js';

/**
 * Files attached to a bug (issue 16): `POST /api/bugs/{id}/attachments` (multipart, field
 * `file`, one or more) and `DELETE /api/bugs/{id}/attachments/{fileId}`, for those who
 * may edit the bug's links (admins, the reporting tester). The same limits and sniffing
 * as chat attachments: at most 5 files of 20 MB, typed by their bytes (images, PDF, zip,
 * plain text), the client's name kept as metadata only. The bytes go to the blob store
 * under a server-made key, then `AttachmentFileAdded` names them, through the one command
 * handler. read-api serves them (`GET /api/bugs/{id}/attachments/{fileId}`) to those who
 * may see the bug.
 *
 * Deleting the bug keeps its files: a bug delete is a soft delete whose history admins
 * and auditors still read (and `?at=` shows the files it had). Removing a file is the
 * explicit wish to have it gone (a screenshot with a password on it): its bytes go, its
 * events (name, size, type, who, when) stay.
 */

export const bugFileAnswerMessages = { added: 'Files attached', removed: 'File removed' } as const;

/** What the bytes say a file is, and the extension its stored name gets. */
const byMagic = new Map<string, string>([
  ['image/jpeg', 'jpg'],
  ['image/png', 'png'],
  ['image/gif', 'gif'],
  ['image/webp', 'webp'],
  ['application/pdf', 'pdf'],
  ['application/zip', 'zip'],
]);

/** The whole form: every file at full size, plus room for boundaries and headers. */
const BODY_LIMIT = bugFileLimits.filesPerUpload * bugFileLimits.fileBytes + 1024 * 1024;
/** One part: a full file and its headers; a larger one is refused as it streams in. */
const PART_LIMIT = bugFileLimits.fileBytes + 64 * 1024;

type CheckedFile = Readonly<{ name: string; bytes: Uint8Array; contentType: string; extension: string }>;

/** Count, size and type of every file, before any is stored (400, or 413 for size). */
async function checkFiles(form: FormData): Promise<CheckedFile[]> {
  const files = form.getAll('file').filter((value) => typeof value !== 'string') as unknown as File[];
  if (files.length === 0) throw ValidationError.field('file', bugFileMessages.noFile);
  if (files.length > bugFileLimits.filesPerUpload) throw ValidationError.field('file', bugFileMessages.tooManyInUpload);
  const checked: CheckedFile[] = [];
  for (const file of files) {
    if (file.size > bugFileLimits.fileBytes) throw new HttpError(413, bugFileMessages.tooLarge);
    if (file.size === 0) throw ValidationError.field('file', bugFileMessages.empty);
    const name = cleanFilename(file.name);
    const bytes = new Uint8Array(await file.arrayBuffer());
    const detected = await fileTypeFromBuffer(bytes);
    const extension = detected ? byMagic.get(detected.mime) : undefined;
    if (detected && extension) checked.push({ name, bytes, contentType: detected.mime, extension });
    else if (!detected && isPlainText(bytes)) {
      checked.push({ name, bytes, contentType: 'text/plain', extension: /\.log$/i.test(name) ? 'log' : 'txt' });
    } else throw ValidationError.field('file', `${bugFileMessages.type} (${name})`);
  }
  return checked;
}

/** A file id from the path: one that cannot be an id names no file. */
function fileIdParam(c: Context): string {
  const id = c.req.param('fileId') ?? '';
  if (!objectIdPattern.test(id)) throw new NotFoundError(bugFileMessages.notFound);
  return id;
}

export function createBugFileRoutes(deps: WriteApiDeps) {
  const app = new Hono<AuthEnv>();
  const now = () => (deps.now?.() ?? new Date()).toISOString();
  app.use('*', requireAuth(deps.tokens), withProjectRights(deps));

  const load = async (bugId: string) => (await deps.commands.load(streams.bug(bugId), bugDecider)).state;

  async function removeBlobs(keys: readonly string[]) {
    await Promise.all(
      keys.map((key) =>
        // The command's outcome stands: a file that cannot go now is logged, not the caller's error.
        deps.blobs.remove(key).catch((error: unknown) => deps.logger.warn('bug file not removed', { key, error })),
      ),
    );
  }

  app.post('/:id/attachments', async (c) => {
    const actor = c.var.actor;
    const bugId = bugIdParam(c);
    const command = (files: readonly BugFileState[]): BugCommand => ({
      type: 'AddBugFiles',
      data: { bugId, files },
      metadata: { actor, now: now() },
    });
    const pending = (size: number, contentType: string, name: string, index: number): BugFileState => ({
      id: `pending-${index}`,
      key: 'pending',
      name,
      size,
      contentType,
    });
    // Who may attach, to a bug that exists and has room, is known before a byte is read:
    // a stranger's upload is refused without spooling it.
    bugDecider.decide(command([pending(1, 'text/plain', 'pending', 0)]), await load(bugId));
    if (!isMultipart(c)) throw new HttpError(415, bugFileMessages.notMultipart);
    const form = await readMultipart(
      c,
      { bodyBytes: BODY_LIMIT, partBytes: PART_LIMIT, tooLarge: bugFileMessages.tooLarge },
      deps.spool,
    );
    const files = await checkFiles(form);
    // Decided with the real count, sizes and types before anything is stored.
    bugDecider.decide(
      command(files.map((f, i) => pending(f.bytes.byteLength, f.contentType, f.name, i))),
      await load(bugId),
    );

    const context = commandContext(c, actor);
    // A retried upload (same Idempotency-Key) names the same file ids, so nothing is appended twice.
    const fileId = (index: number) =>
      context.idempotencyKey ? deriveFileId(context.idempotencyKey, actor.id, bugId, index) : randomUUID();
    const stored: string[] = [];
    try {
      const named: BugFileState[] = [];
      for (const [index, file] of files.entries()) {
        const blob = await deps.blobs.put('bug', file.bytes, file.contentType, file.extension);
        stored.push(blob.key);
        named.push({
          id: fileId(index),
          key: blob.key,
          name: file.name,
          size: blob.size,
          contentType: file.contentType,
        });
      }
      // Attaching commutes with any other change: re-read and re-decide on a concurrent write.
      const handled = await deps.commands.handle(streams.bug(bugId), bugDecider, command(named), context, {
        retryOnConflict: true,
      });
      // A retry of an upload already made: the first one's files are the bug's; these are spare.
      if (handled.newEvents.length === 0) await removeBlobs(stored);
      await settle(c, deps, handled.position);
      const bug = handled.state as ReportedBug;
      const ids = new Set(named.map((f) => f.id));
      c.header('ETag', `"${handled.revision}"`);
      return c.json(
        {
          message: bugFileAnswerMessages.added,
          bug: await bugAnswer(deps, bug, handled.revision, { reader: actor }),
          files: bug.files.filter((f) => ids.has(f.id)).map((f) => toBugFileDto(bug.id, f)),
        },
        201,
      );
    } catch (error) {
      await removeBlobs(stored);
      throw error;
    }
  });

  app.delete('/:id/attachments/:fileId', async (c) => {
    const actor = c.var.actor;
    const bugId = bugIdParam(c);
    const fileId = fileIdParam(c);
    const before = await load(bugId);
    const key = before.kind === 'reported' ? findBugFile(before, fileId)?.key : undefined;
    let state: BugState;
    let revision: number;
    try {
      const handled = await deps.commands.handle(
        streams.bug(bugId),
        bugDecider,
        { type: 'RemoveBugFile', data: { bugId, fileId }, metadata: { actor, now: now() } },
        commandContext(c, actor),
        // Removing one file twice at once appends one removal; other writes meanwhile are no conflict.
        { naturalKey: `${bugId}:file:${fileId}`, retryOnConflict: true },
      );
      await settle(c, deps, handled.position);
      // A replayed removal (same Idempotency-Key) finds the file gone already: its key is in the stream.
      const gone = key ?? (await removedFileKey(bugId, fileId));
      if (gone) await removeBlobs([gone]);
      state = handled.state;
      revision = handled.revision;
    } catch (error) {
      // The decider says "File not found" only to those who may edit the bug: when the file was
      // removed before (a retry, or a second click), its bytes go now if an interrupted first
      // removal left them, and the answer is the same as the first.
      if (!(error instanceof NotFoundError && error.message === bugFileMessages.notFound)) throw error;
      const removedKey = await removedFileKey(bugId, fileId);
      if (removedKey === null) throw error;
      await removeBlobs([removedKey]);
      const loaded = await deps.commands.load(streams.bug(bugId), bugDecider);
      state = loaded.state;
      revision = loaded.revision;
    }
    c.header('ETag', `"${revision}"`);
    return c.json(
      {
        message: bugFileAnswerMessages.removed,
        bug: await bugAnswer(deps, state as ReportedBug, revision, { reader: actor }),
      },
      200,
    );
  });

  /** The blob key of a file the bug had and no longer has, from its stream; null when it never had it. */
  async function removedFileKey(bugId: string, fileId: string): Promise<string | null> {
    let key: string | null = null;
    let removed = false;
    for (const event of await deps.commands.store.readStream(streams.bug(bugId))) {
      if (!isEvent(event, 'AttachmentFileAdded', 'AttachmentFileRemoved') || event.data.fileId !== fileId) continue;
      if (event.type === 'AttachmentFileAdded') key = event.data.key;
      else removed = true;
    }
    return removed ? key : null;
  }

  return app;
}

/** A file id derived from the request's Idempotency-Key: a retry names the same files. */
function deriveFileId(idempotencyKey: string, actorId: string, bugId: string, index: number): string {
  return deriveEventId(idempotencyKey, `${actorId}:${bugId}:file`, index);
}
