import { type ImportSource, importSources } from '../core/event.js';
import type { BugStatus, Priority, Severity } from './bug-vocabulary.js';

/**
 * Import's words (api.md "Integrations", docs/import.md): the systems, the answer's shape,
 * the limits and the messages. No schema library here: the browser loads this through
 * `@bugtrail/domain/vocabulary`.
 */
export { type ImportSource, importSources };

export const importSourceLabels: Readonly<Record<ImportSource, string>> = {
  redmine: 'Redmine',
  jira: 'Jira',
  github: 'GitHub',
};

/** What each system's file is, as the page and the CLI's help say it. */
export const importSourceFiles: Readonly<Record<ImportSource, string>> = {
  redmine: "Redmine's CSV export of issues (with the Description column)",
  jira: "Jira's CSV export of issues (all fields)",
  github: 'The JSON of gh issue list --json number,title,body,state,labels,createdAt,closedAt,author,assignees',
};

export const importLimits = {
  /** The largest file, read as it streams in. */
  fileBytes: 200 * 1024 * 1024,
  /** How many of the bugs a dry run would create it describes. */
  previewItems: 20,
} as const;

export const importMessages = {
  adminsOnly: 'Only admins can import bugs',
  unknownSource: `from must be one of ${importSources.join(', ')}`,
  badFlag: (name: string) => `${name} must be true or false`,
  empty: 'The file is empty',
  tooLarge: `The file is too large (limit ${importLimits.fileBytes / 1024 / 1024} MB)`,
  titleRequired: 'Title is required',
  duplicate: (id: string, row: number) => `Issue ${id} appears twice (first in row ${row})`,
  idRequired: 'The issue has no id',
} as const;

/** One row the import refuses: its number in the file (docs/import.md says how rows are counted). */
export type ImportRowError = Readonly<{ row: number; message: string }>;

/** One bug a dry run would create, as the page previews it. */
export type ImportPreviewItem = Readonly<{
  row: number;
  sourceId: string;
  title: string;
  status: BugStatus;
  priority: Priority;
  severity: Severity;
  module: string | null;
  /** The reporter's name: a user's here, or the source's when no user matches. */
  reporter: string;
  assignees: readonly string[];
  createdAt: string;
  /** When it was closed (or last changed, for a bug in progress); null for an open bug. */
  statusChangedAt: string | null;
}>;

/**
 * `POST /api/import`'s answer: how many bugs were (or, on a dry run, would be) created, how
 * many were there already, and each invalid row. A dry run also previews the first bugs.
 */
export type ImportAnswer = Readonly<{
  imported: number;
  skipped: number;
  errors: readonly ImportRowError[];
  preview?: readonly ImportPreviewItem[];
}>;

/**
 * With `Accept: application/x-ndjson` the answer is a stream of lines: progress while the
 * bugs are appended, then the answer (or, past the point of no return, an error).
 */
export type ImportStreamLine =
  | Readonly<{ progress: Readonly<{ done: number; total: number }> }>
  | Readonly<{ result: ImportAnswer }>
  | Readonly<{ error: Readonly<{ status: number; message: string }> }>;

export const IMPORT_STREAM_TYPE = 'application/x-ndjson';
