import { NotFoundError, ValidationError } from '../core/errors.js';
import type { Actor, Command } from '../core/event.js';
import type { BugState, ReportedBug } from './bug.js';
import type { AttachmentFileAddedData, AttachmentFileRemovedData } from './bug.schemas.js';
import type { BugEvent } from './bug-events.js';
import { actorOf, existingBug, refuse } from './guards.js';
import { bugPermissions } from './permissions.js';

/**
 * Files attached to a bug (beside its links): the bytes live in the blob store under a
 * server-made key, the events name them (`AttachmentFileAdded` with the key, name, size
 * and sniffed type; `AttachmentFileRemoved`). Who may add or remove them is who may
 * edit the bug's links today (`bugPermissions.canEdit`: admins, the reporting tester);
 * who may fetch one is who may see the bug. No schema library here: the web reads the
 * limits and messages through the vocabulary door.
 */

export const bugFileLimits = {
  /** Files in one upload request. */
  filesPerUpload: 5,
  /** Each file, as for chat attachments. */
  fileBytes: 20 * 1024 * 1024,
  /** Files a bug holds at once (its answer carries them all). */
  filesPerBug: 20,
} as const;

/** The types a file may have, as its bytes say (never the client's name or type). */
export const bugFileTypes = [
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/webp',
  'application/pdf',
  'application/zip',
  'text/plain',
] as const;
export type BugFileType = (typeof bugFileTypes)[number];

/** Images a browser renders harmlessly: shown inline and as thumbnails; any other file is a download. */
export const isPreviewableImage = (contentType: string): boolean =>
  ['image/png', 'image/jpeg', 'image/gif', 'image/webp'].includes(contentType);

const mb = bugFileLimits.fileBytes / (1024 * 1024);

export const bugFileMessages = {
  noFile: 'Choose a file to attach (multipart form field "file")',
  notMultipart: 'Send the files as multipart/form-data, in the field "file"',
  tooManyInUpload: `At most ${bugFileLimits.filesPerUpload} files per upload`,
  tooManyOnBug: `A bug can have at most ${bugFileLimits.filesPerBug} files`,
  tooLarge: `Each file must be at most ${mb} MB`,
  empty: 'Files cannot be empty',
  type: 'File type not allowed: images, PDF, text, logs and zip files only',
  notFound: 'File not found',
  cannotAdd: "You don't have permission to add files to this bug",
  cannotRemove: "You don't have permission to remove files from this bug",
} as const;

/** A file as the bug's state holds it. `key` names the bytes in the blob store and is never answered. */
export type BugFileState = Readonly<{ id: string; key: string; name: string; size: number; contentType: string }>;

/** A file as every bug answer shows it. */
export type BugFileDto = { _id: string; name: string; size: number; contentType: string; url: string };

/** Where a file is fetched: read-api checks, on every fetch, that the caller may see the bug. */
export const bugFileUrl = (bugId: string, fileId: string): string =>
  `/api/bugs/${encodeURIComponent(bugId)}/attachments/${encodeURIComponent(fileId)}`;

export const toBugFileDto = (bugId: string, file: BugFileState): BugFileDto => ({
  _id: file.id,
  name: file.name,
  size: file.size,
  contentType: file.contentType,
  url: bugFileUrl(bugId, file.id),
});

/** Files stored by write-api (already in the blob store) for the bug to name. */
export type AddBugFiles = Command<'AddBugFiles', { bugId: string; files: readonly BugFileState[] }>;
export type RemoveBugFile = Command<'RemoveBugFile', { bugId: string; fileId: string }>;
export type BugFileCommand = AddBugFiles | RemoveBugFile;

/** 404 for a missing or deleted bug; 403 (the detail's words for a stranger) for who may not edit it. */
function editableBug(actor: Actor, state: BugState, message: string): ReportedBug {
  const bug = existingBug(state, actor);
  if (!bugPermissions.canEdit(actor, bug)) refuse(actor, bug, message);
  return bug;
}

function addBugFiles(command: AddBugFiles, state: BugState): BugEvent[] {
  const bug = editableBug(actorOf(command), state, bugFileMessages.cannotAdd);
  if (command.data.files.length === 0) throw ValidationError.field('file', bugFileMessages.noFile);
  if (command.data.files.length > bugFileLimits.filesPerUpload) {
    throw ValidationError.field('file', bugFileMessages.tooManyInUpload);
  }
  // A file the bug already names (the same ids decided again) is no new file.
  const files = command.data.files.filter((f) => !bug.files.some((known) => known.id === f.id));
  if (bug.files.length + files.length > bugFileLimits.filesPerBug) {
    throw ValidationError.field('file', bugFileMessages.tooManyOnBug);
  }
  for (const file of files) {
    if (file.size <= 0) throw ValidationError.field('file', bugFileMessages.empty);
    if (file.size > bugFileLimits.fileBytes) throw ValidationError.field('file', bugFileMessages.tooLarge);
    if (!(bugFileTypes as readonly string[]).includes(file.contentType)) {
      throw ValidationError.field('file', `${bugFileMessages.type} (${file.name})`);
    }
  }
  return files.map(
    (file): BugEvent => ({
      type: 'AttachmentFileAdded',
      data: {
        bugId: bug.id,
        fileId: file.id,
        key: file.key,
        name: file.name,
        size: file.size,
        contentType: file.contentType,
      },
    }),
  );
}

function removeBugFile(command: RemoveBugFile, state: BugState): BugEvent[] {
  const bug = editableBug(actorOf(command), state, bugFileMessages.cannotRemove);
  const file = bug.files.find((f) => f.id === command.data.fileId);
  if (!file) throw new NotFoundError(bugFileMessages.notFound);
  return [{ type: 'AttachmentFileRemoved', data: { bugId: bug.id, fileId: file.id, name: file.name } }];
}

export function decideBugFiles(command: BugFileCommand, state: BugState): BugEvent[] {
  return command.type === 'AddBugFiles' ? addBugFiles(command, state) : removeBugFile(command, state);
}

type FileEvent =
  | Readonly<{ type: 'AttachmentFileAdded'; data: Readonly<AttachmentFileAddedData> }>
  | Readonly<{ type: 'AttachmentFileRemoved'; data: Readonly<AttachmentFileRemovedData> }>;

/** The files after one file event; the same array when the event changes nothing (a file named twice). */
export function evolveBugFiles(files: readonly BugFileState[], event: FileEvent): readonly BugFileState[] {
  if (event.type === 'AttachmentFileAdded') {
    const d = event.data;
    if (files.some((f) => f.id === d.fileId)) return files;
    return [...files, { id: d.fileId, key: d.key, name: d.name, size: d.size, contentType: d.contentType }];
  }
  if (!files.some((f) => f.id === event.data.fileId)) return files;
  return files.filter((f) => f.id !== event.data.fileId);
}

/** The file of a bug with this id, if the bug holds it now. */
export const findBugFile = (bug: ReportedBug, fileId: string): BugFileState | undefined =>
  bug.files.find((f) => f.id === fileId);
