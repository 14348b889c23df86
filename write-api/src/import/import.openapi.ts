import {
  bugProjectMessages,
  bugStatusSchema,
  type ImportAnswer,
  importLimits,
  importMessages,
  prioritySchema,
  projectMessages,
  severitySchema,
} from '@bugtrail/domain';
import { errorAnswer, invalidAnswer, type RouteSpec } from '@bugtrail/platform';
import { z } from 'zod';
import { positionHeaders } from '../commands.openapi.js';
import { importQuery } from './import.routes.js';

/** /api/import (import.routes.ts), relative to its mount. */

const mb = importLimits.fileBytes / (1024 * 1024);

const previewItemSchema = z.object({
  row: z.number().int(),
  sourceId: z.string().describe("The issue's id there (Redmine's #, Jira's key, GitHub's number)"),
  title: z.string(),
  status: bugStatusSchema,
  priority: prioritySchema,
  severity: severitySchema,
  module: z.string().nullable(),
  reporter: z.string().describe("A user's name here, or the source's name when no user matches"),
  assignees: z.array(z.string()),
  createdAt: z.string(),
  statusChangedAt: z.string().nullable(),
});

export const importAnswerSchema = z.object({
  imported: z.number().int().describe('Bugs created (on a dry run: that would be)'),
  skipped: z.number().int().describe('Issues imported before (their bugs are here already): nothing new'),
  errors: z
    .array(z.object({ row: z.number().int(), message: z.string() }))
    .describe('Each invalid row: the header is row 1 of a CSV; an issue of GitHub’s JSON counts from 1'),
  preview: z
    .array(previewItemSchema)
    .optional()
    .describe(`On a dry run: the first ${importLimits.previewItems} bugs it would create, in file order`),
});

// The published shape is the answer the route builds.
const sameShape: z.infer<typeof importAnswerSchema> extends ImportAnswer ? true : never = true;
void sameShape;

export const importOperations: RouteSpec[] = [
  {
    method: 'post',
    path: '/',
    summary: 'Import bugs from a Redmine or Jira CSV export or GitHub’s issue JSON',
    description:
      `The file is the body (at most ${mb} MB, streamed): Redmine's or Jira's CSV export, or the JSON of \`gh ` +
      'issue list --json number,title,body,state,labels,createdAt,closedAt,author,assignees`. Imported bugs keep ' +
      'their original creation and closing times (their events carry `metadata.importedFrom { system, id }`) and ' +
      "take the next bug numbers in the order of the source's ids; people are matched by email, then by name, " +
      'else kept by name; times without an offset are read in IMPORT_TIMEZONE. docs/import.md has every mapping. ' +
      'Importing the same file again imports nothing (`skipped`). A file with an invalid row imports nothing ' +
      'unless `skipInvalid=true`. With `Accept: application/x-ndjson` the answer streams JSON lines: ' +
      '`{"progress":{"done","total"}}` while bugs are appended, then `{"result":{…this answer…}}` (or ' +
      '`{"error":{"status","message"}}`).',
    tags: ['import'],
    roles: ['admin'],
    query: importQuery,
    body: {
      schema: z.string().describe('The export file: CSV for redmine and jira, a JSON array for github'),
      contentType: 'text/csv',
    },
    responses: {
      200: {
        description: 'Imported (or, on a dry run, what would be): the counts and each invalid row',
        schema: importAnswerSchema,
        headers: positionHeaders,
      },
      400: invalidAnswer,
      403: errorAnswer(`"${importMessages.adminsOnly}"`),
      404: errorAnswer(`"${projectMessages.notFound}": \`project\` names no project`),
      409: errorAnswer(`"${bugProjectMessages.archived}"`),
      413: errorAnswer(`"${importMessages.tooLarge}"`),
      429: errorAnswer(
        "The caller's uploads in progress are at their spool quota (ADR 025); `Retry-After` says when to try again",
      ),
      507: errorAnswer(
        'The server is short of disk space for uploads (SPOOL_MIN_FREE_MB); `Retry-After` says when to try again',
      ),
    },
  },
];
