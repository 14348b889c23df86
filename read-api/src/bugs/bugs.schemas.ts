import { slaFilters, slaMessages } from '@bugtrail/domain';
import { bugDtoSchema, userRefSchema } from '@bugtrail/platform';
import { bugSortKeys } from '@bugtrail/projector';
import { z } from 'zod';
import { asOfQuery } from '../as-of.js';

/** Query strings and answers of the bug reads: validated here, published in /api/openapi.json. */

// The bug and user DTOs are answered by write-api too: their schemas are platform's.
export { bugDtoSchema, userDtoSchema, userRefSchema } from '@bugtrail/platform';

export const listQuery = z.object({
  status: z
    .string()
    .max(50)
    .optional()
    .describe(
      'Open, In Progress, Closed, or Pending (= Open), Resolved (= Closed); any case; empty = all. Several: comma-separated (`Open,In Progress`) or the parameter repeated; a bug matches any of them',
    ),
  q: z.string().max(200).optional().describe('Full-text search over title and description'),
  limit: z
    .string()
    .regex(/^\d+$/, 'limit must be a positive whole number')
    .transform(Number)
    .pipe(z.number().int().min(1, 'limit must be a positive whole number'))
    .optional()
    .describe('Page size (at most 100). Without it every bug the caller can see is returned.'),
  cursor: z.string().max(500).optional().describe('The nextCursor of the previous page'),
  sort: z
    .union(
      [
        z.enum([...bugSortKeys, ...bugSortKeys.map((k) => `-${k}` as const)]),
        z.string().regex(/^-?field\.[a-z0-9_]{1,40}$/),
      ],
      {
        error: `sort must be one of ${bugSortKeys.join(', ')} or field.<key> (a leading - sorts descending)`,
      },
    )
    .optional()
    .describe(
      'The order: created (default, newest first), updated, number, title, status, priority, severity, assignees, due, rank (the board’s order), or `field.<key>` (a custom field’s values; bugs without one last); a leading - sorts descending',
    ),
  priority: z
    .string()
    .max(100)
    .optional()
    .describe('Low, Medium, High; several: comma-separated or the parameter repeated (a bug matches any)'),
  severity: z
    .string()
    .max(100)
    .optional()
    .describe('Minor, Major, Critical; several: comma-separated or the parameter repeated (a bug matches any)'),
  assignee: z
    .string()
    .max(100)
    .optional()
    .describe(
      'A developer id, or none for unassigned bugs; several: comma-separated or the parameter repeated (a bug matches when any of them is assigned, or it is unassigned and none is among them)',
    ),
  reporter: z
    .string()
    .max(100)
    .optional()
    .describe('The id of who reported the bug; several: comma-separated or the parameter repeated'),
  module: z
    .string()
    .max(50)
    .optional()
    .describe(
      'The module, matched whole, any case; several: the parameter repeated (`module=Login&module=Checkout`; a value is never split at commas, as a module name may hold one)',
    ),
  due: z
    .enum(['overdue', 'week', 'none'], { error: 'due must be overdue, week or none' })
    .optional()
    .describe(
      'overdue: due before today (UTC) and not Closed; week: due today or in the next 6 days; none: no due date',
    ),
  project: z
    .string()
    .max(100)
    .optional()
    .describe(
      'A project’s key (any it has had, any case) or `_id`; several: comma-separated or the parameter repeated (`project=WEB&project=API`). A project the caller cannot see matches nothing',
    ),
  state: z
    .string()
    .max(100)
    .optional()
    .describe(
      'A workflow state’s `_id` (`GET /api/projects/{id}/states`); several: comma-separated or the parameter repeated (a bug matches any)',
    ),
  label: z
    .string()
    .max(100)
    .optional()
    .describe(
      'A label’s name (any case) or `_id`; several: comma-separated or the parameter repeated (`label=ui&label=regression`): a bug matches when it carries every one. A name no label has matches nothing',
    ),
  milestone: z
    .string()
    .max(100)
    .optional()
    .describe(
      'A milestone’s `_id`, or none for bugs in no milestone; several: comma-separated or repeated (a bug matches any)',
    ),
  parent: z.string().max(100).optional().describe('A bug’s `_id`: its sub-bugs; several: comma-separated or repeated'),
  archived: z
    .enum(['true', 'false'], { error: 'archived must be true or false' })
    .optional()
    .describe('true: the archived bugs instead (they are in no other list or count); false, the default: the others'),
  sla: z
    .enum(slaFilters, { error: slaMessages.unknownFilter })
    .optional()
    .describe(
      'at_risk: a target of its SLA not met yet is in the last quarter of its window; breached: a target met late, or unmet and past due',
    ),
  triage: z
    .enum(['true', 'false'], { error: 'triage must be true or false' })
    .optional()
    .describe(
      'true: only bugs waiting in triage (not Closed, no assignee), as a team project takes reports (`project=KEY&triage=true`)',
    ),
});

/** A dashboard's query: `asOf`, and `project` as lists take it (api.md "Projects"). */
export const dashboardQuery = asOfQuery.extend({
  project: z
    .string()
    .max(100)
    .optional()
    .describe('Only these projects’ bugs: a key (any it has had) or `_id`; several comma-separated or repeated'),
});

/** An ISO 8601 date or date-time that names a real instant (no 31 February, no hour 24). */
function isIsoInstant(text: string): boolean {
  const m =
    /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(?:Z|[+-](?:0\d|1[0-5]):?[0-5]\d)?)?$/.exec(
      text,
    );
  if (!m || Number.isNaN(Date.parse(text))) return false;
  const [y, mo, d, h = 0, mi = 0, s = 0] = m.slice(1).map((v) => Number(v ?? 0)) as number[];
  if (h! > 23 || mi! > 59 || s! > 59) return false;
  const date = new Date(Date.UTC(2000, mo! - 1, d));
  date.setUTCFullYear(y!);
  return y! >= 1 && date.getUTCMonth() === mo! - 1 && date.getUTCDate() === d;
}

export const historyQuery = z.object({
  at: z
    .string()
    .max(40)
    .refine(isIsoInstant, 'at must be an ISO 8601 time')
    .optional()
    .describe('Answer the bug as it was at this time instead of the event list'),
  from: z
    .string()
    .max(40)
    .refine(isIsoInstant, 'from must be an ISO 8601 time')
    .optional()
    .describe('With `to`: compare the bug as it was at this time with the bug at `to`'),
  to: z
    .string()
    .max(40)
    .refine(isIsoInstant, 'to must be an ISO 8601 time')
    .optional()
    .describe('With `from`: the second moment of the comparison'),
});

export const statusSummarySchema = z.object({
  all: z.number().int(),
  open: z.number().int(),
  inProgress: z.number().int(),
  closed: z.number().int(),
  openBugs: z.number().int(),
  pendingBugs: z.number().int(),
  inProgressBugs: z.number().int(),
  closedBugs: z.number().int(),
  resolvedBugs: z.number().int(),
});

export const bugListRowSchema = bugDtoSchema
  .pick({
    _id: true,
    number: true,
    title: true,
    status: true,
    priority: true,
    severity: true,
    module: true,
    createdAt: true,
    dueDate: true,
  })
  .extend({ createdBy: userRefSchema, assignedTo: z.array(userRefSchema) })
  .strict()
  .describe("A bug someone else reported, as a tester's list shows it: no description, checklist or attachments");

/** all-viewable: a tester gets others' bugs as rows, their own in full. */
export const allViewableSchema = z.object({
  bugs: z.array(z.union([bugDtoSchema, bugListRowSchema])),
  statusSummary: statusSummarySchema,
  nextCursor: z.string().nullable().optional().describe('Present when `limit` was given; null on the last page'),
  total: z
    .number()
    .int()
    .optional()
    .describe('Present when `limit` was given: how many bugs the list holds, all pages'),
});

export const bugListSchema = z.object({
  bugs: z.array(bugDtoSchema),
  statusSummary: statusSummarySchema,
  nextCursor: z.string().nullable().optional().describe('Present when `limit` was given; null on the last page'),
  total: z
    .number()
    .int()
    .optional()
    .describe('Present when `limit` was given: how many bugs the list holds, all pages'),
});

const statisticsSchema = z.object({
  totalBugs: z.number().int(),
  openBugs: z.number().int(),
  inProgressBugs: z.number().int(),
  closedBugs: z.number().int(),
  pendingBugs: z.number().int(),
  resolvedBugs: z.number().int(),
});
const levelsSchema = z.object({ High: z.number().int(), Medium: z.number().int(), Low: z.number().int() });

export const dashboardSchema = z.object({
  statistics: statisticsSchema,
  stats: statisticsSchema.optional().describe('The tester dashboard also answers the statistics as `stats`'),
  charts: z.object({
    bugDistribution: z.object({
      Open: z.number().int(),
      InProgress: z.number().int(),
      'In Progress': z.number().int(),
      Closed: z.number().int(),
      All: z.number().int(),
    }),
    bugSeverityLevels: levelsSchema.describe('Critical counts as High, Major as Medium, Minor as Low'),
    bugPriorityLevels: levelsSchema,
  }),
  recentBugs: z.array(bugDtoSchema),
  suggestions: z
    .object({
      reports: z.number().int().describe('Reports made with the form’s triage suggestions'),
      shown: z.object({
        duplicates: z.number().int(),
        severity: z.number().int(),
        priority: z.number().int(),
        assignees: z.number().int(),
      }),
      taken: z.object({ severity: z.number().int(), priority: z.number().int(), assignees: z.number().int() }),
    })
    .optional()
    .describe(
      'Admin dashboard only, without `asOf`: of the reports made with the form’s triage suggestions, how many showed each kind and how many took it',
    ),
});

export const historyEntrySchema = z.object({
  _id: z.string().describe('The event id'),
  stream: z.string().describe('The stored stream name, `bug-<id>`'),
  revision: z.number().int(),
  type: z.string(),
  at: z.string(),
  actor: z
    .object({ _id: z.string().nullable(), name: z.string() })
    .nullable()
    .describe('Who did it; `_id` null for a code host acting through its signed webhook ("GitHub", "GitLab")'),
  changes: z.array(z.object({ field: z.string(), from: z.unknown(), to: z.unknown() })),
  data: z.record(z.string(), z.unknown()).describe('As stored'),
  metadata: z.record(z.string(), z.unknown()).describe('As stored'),
  hash: z
    .string()
    .nullable()
    .describe(
      'Lowercase hex SHA-256 of prevHash followed by the RFC 8785 JSON of {stream, revision, type, data, metadata}',
    ),
  prevHash: z.string().nullable().describe('The previous event’s hash; "0" × 64 for the first'),
});

export const integritySchema = z.object({
  ok: z.boolean(),
  events: z.number().int(),
  brokenAt: z.number().int().nullable().describe('The first revision whose hash does not match; null when intact'),
});

export const historySchema = z.object({
  bugId: z.string(),
  events: z.array(historyEntrySchema),
  integrity: integritySchema,
});

export const activityEntrySchema = historyEntrySchema.extend({
  position: z.string().describe('The event’s place in the global order; pass it as `before` for older entries'),
  bug: z
    .object({ _id: z.string(), title: z.string(), deleted: z.boolean() })
    .describe('The bug as it was right after this event'),
});

export const activityAnswerSchema = z.object({
  entries: z.array(activityEntrySchema).describe('Newest first'),
  next: z.string().nullable().describe('`before` for the next, older page; null when this was the last'),
});

export const bugAtSchema = bugDtoSchema.extend({
  deleted: z.boolean().optional().describe('True when the bug had been deleted by then'),
});

export const bugChangeSchema = z.object({
  field: z
    .string()
    .describe("The bug form's label: Title, Description, Priority, …, Assign To, Checklist, Attachments"),
  from: z.unknown().describe('The value at `from`, as the bug answer spells it (null when the bug did not exist yet)'),
  to: z.unknown().describe('The value at `to`'),
});

export const bugCompareSchema = z.object({
  from: bugAtSchema.nullable().describe('The bug at `from`; null when it did not exist yet'),
  to: bugAtSchema.nullable().describe('The bug at `to`; null when it did not exist yet'),
  changes: z.array(bugChangeSchema).describe('Only the fields that differ, in the order of the bug form'),
});
