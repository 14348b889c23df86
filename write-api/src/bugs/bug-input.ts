import { randomUUID } from 'node:crypto';
import {
  type Actor,
  type BugDto,
  type ChecklistEntry,
  fieldValuesBody,
  NotFoundError,
  type ProjectState,
  priorities,
  type ReportedBug,
  severities,
  suggestionUsageInput,
  toBugDto,
  type UserRef,
  withSlaAt,
  worklogMessages,
} from '@bugtrail/domain';
import { deriveEventId } from '@bugtrail/eventstore';
import type { Context } from 'hono';
import { z } from 'zod';
import type { WriteApiDeps } from '../deps.js';
import { LabelTable } from '../labels/label-table.js';
import { loadProject } from '../projects/project-facts.js';
import { SlaTable } from '../sla/sla-table.js';
import { linksOf } from './bug-relations.js';

/**
 * The bug payloads as clients send them (spec section 3, "Bug create payload"), read
 * tolerantly: ids or `{_id}` objects for users, strings or `{text, completed}` for
 * checklist items, any case for priority and severity. The rules themselves (lengths,
 * required fields, messages) are the domain's.
 */

const anyCase = <const T extends readonly [string, ...string[]]>(values: T, label: string) =>
  z.preprocess((v) => {
    if (v === null || v === undefined || v === '') return undefined;
    if (typeof v !== 'string') return v;
    return values.find((x) => x.toLowerCase() === v.trim().toLowerCase()) ?? v;
  }, z.enum(values, { error: `${label} must be one of ${values.join(', ')}` }).optional());

const text = z.string().max(100_000).nullable().optional();
const userId = z.union([z.string().max(200), z.object({ _id: z.string().max(200) }).transform((u) => u._id)]);

const checklistItem = z.union([
  z
    .string()
    .max(100_000)
    .transform((t) => ({ text: t })),
  z.object({
    _id: z.string().max(200).nullable().optional(),
    id: z.string().max(200).nullable().optional(),
    text: z.string().max(100_000).nullable().optional(),
    completed: z.boolean().nullable().optional(),
    // completedBy and completedAt are the server's to set: read and ignored.
  }),
]);

export const bugPayload = z.object({
  title: text,
  description: text,
  priority: anyCase(priorities, 'Priority'),
  severity: anyCase(severities, 'Severity'),
  /** Ignored on create (always Open); on edit applied for admins (the status route owns it otherwise). */
  status: z.unknown().optional(),
  module: z.string().max(100_000).nullable().optional(),
  dueDate: z.string().max(100).nullable().optional(),
  assignedTo: z
    .preprocess((v) => (v === null || v === undefined ? v : Array.isArray(v) ? v : [v]), z.array(userId).max(500))
    .nullable()
    .optional(),
  checklist: z.array(checklistItem).max(1000, 'A checklist cannot have more than 1000 entries').nullable().optional(),
  attachments: z.array(z.string().max(100_000)).max(1000).nullable().optional(),
  /** Custom field values by key (issue 37); on an edit only those named change, null clears one. */
  fields: fieldValuesBody.nullish(),
  /** Hours it is expected to take, or null for none (issue 37). */
  estimate: z.number({ error: worklogMessages.estimate }).nullable().optional(),
});
export type BugPayload = z.infer<typeof bugPayload>;

/**
 * A report (POST): the bug payload and, from the web form, which triage suggestions it
 * showed and which were taken (recorded in the BugReported event's metadata, never in the bug).
 */
export const reportPayload = bugPayload.extend({
  suggestions: suggestionUsageInput.nullish(),
  /** Its project's `_id` (or key); absent: the default project (the spec's clients). */
  projectId: z.string({ error: 'projectId must be a project id' }).trim().min(1).max(100).nullish(),
});

export const checklistPayload = z.object({
  checklist: z.array(checklistItem, { error: 'checklist must be a list of items' }).max(1000),
});

export const statusPayload = z.object({
  status: z.unknown().optional(),
  /** An admin closes a bug past its open blockers (api.md "Relations and sub-bugs"). */
  override: z.boolean({ error: 'override must be true or false' }).optional(),
});

export function toChecklistEntries(items: z.infer<typeof checklistItem>[]): ChecklistEntry[] {
  return items.map((item) => {
    const o = item as { _id?: string | null; id?: string | null; text?: string | null; completed?: boolean | null };
    return {
      id: o._id ?? o.id ?? null,
      text: o.text ?? '',
      completed: o.completed ?? undefined,
    };
  });
}

/** Bug ids are opaque strings; one that cannot be a bug id is simply not found. */
export const objectIdPattern = /^[\w-]{1,100}$/;

export function bugIdParam(c: Context): string {
  const id = c.req.param('id') ?? '';
  if (!objectIdPattern.test(id)) throw new NotFoundError('Bug not found');
  return id;
}

/** Ids for new checklist items: derived from the idempotency key when there is one. */
export function newItemIds(count: number, idempotencyKey: string | null, scope: string): string[] {
  return Array.from({ length: count }, (_, i) =>
    idempotencyKey ? deriveEventId(idempotencyKey, `${scope}:checklist-item`, i) : randomUUID(),
  );
}

/**
 * The bug as every answer shows it, named from the write side's accounts; `known` are
 * people the command read already (only the others are asked for).
 */
export async function bugAnswer(
  deps: WriteApiDeps,
  bug: ReportedBug,
  version: number,
  {
    reader,
    known = new Map(),
    project,
  }: {
    reader: Actor;
    known?: ReadonlyMap<string, UserRef> | undefined;
    project?:
      | (Pick<ProjectState, 'id' | 'key' | 'name'> & Partial<Pick<ProjectState, 'fields' | 'states'>>)
      | undefined;
  },
): Promise<BugDto> {
  const ids = new Set<string>([bug.reporterId, ...bug.assigneeIds]);
  for (const item of bug.checklist) if (item.completedBy) ids.add(item.completedBy);
  const missing = [...ids].filter((id) => !known.has(id));
  const [users, shown, labels, links, policies] = await Promise.all([
    missing.length > 0 ? deps.accounts.refs(missing) : new Map<string, UserRef>(),
    project?.id === bug.projectId ? project : loadProject(deps, bug.projectId),
    new LabelTable(deps.pool).refs(bug.labelIds),
    linksOf(deps, bug, reader),
    new SlaTable(deps.pool).live(bug.projectId),
  ]);
  const dto = toBugDto(
    bug,
    version,
    (id) => known.get(id) ?? users.get(id),
    (id) => (id === shown.id && shown.key ? shown : undefined),
    (id) => labels.get(id),
    links,
    (id) => (id === shown.id ? { fields: shown.fields ?? [], states: shown.states ?? [] } : undefined),
    policies,
  );
  return withSlaAt(dto, new Date());
}
