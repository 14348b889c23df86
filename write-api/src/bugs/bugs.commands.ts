import {
  type Actor,
  type BugState,
  bugArchiveMessages,
  bugDecider,
  bugMessages,
  bugPermissions,
  bugProjectMessages,
  bugSideEventTypes,
  bugStatusSchema,
  bugStreamDecider,
  bugWriteMessages,
  decideArchive,
  decideMove,
  type FieldInput,
  ForbiddenError,
  legacyProjectId,
  type MoveBug,
  type ProjectState,
  type ProjectState as ProjectStateOf,
  parseStatusFilter,
  parseStatusValue,
  prioritySchema,
  projectIdBody,
  projectMessages,
  type ReportBug,
  type ReportedBug,
  type Role,
  severitySchema,
  streams,
  type UserRef,
  userIdsNamed,
} from '@bugtrail/domain';
import type { ExtraMetadata, Handled, HandleOptions } from '@bugtrail/eventstore';
import { bugDtoSchema, errorAnswer, forbiddenAnswer, idParam, invalidAnswer, notFoundAnswer } from '@bugtrail/platform';
import { z } from 'zod';
import { type CommandAnswer, type CommandRequest, defineCommand } from '../command.js';
import { idempotencyHeader, positionHeaders } from '../commands.openapi.js';
import type { WriteApiDeps } from '../deps.js';
import { writeBugMilestone } from '../milestones/milestones.commands.js';
import { ProjectBugNumbers } from '../projects/project-bug-numbers.js';
import { defaultProjectId, factsOf, loadProject, projectNamed } from '../projects/project-facts.js';
import { ProjectRights } from '../projects/project-rights.js';
import {
  bugAnswer,
  bugPayload,
  checklistPayload,
  newItemIds,
  objectIdPattern,
  reportPayload,
  statusPayload,
  toChecklistEntries,
} from './bug-input.js';
import { BugNumbers } from './bug-numbers.js';
import { BugRanks } from './bug-ranks.js';
import { openBlockersOf } from './bug-relations.js';

/**
 * Bug commands (api.md "Bugs"): report, edit, delete, status, checklist. Each is one
 * declaration (issue 34): the one write path reads, folds, decides and appends with the
 * revision decided on, then waits for the read models (read-your-writes) and answers the
 * bug's DTO with its version as the ETag. Who may do what to which bug is the decider's.
 */

export const bugAnswerMessages = {
  reported: 'Bug Reported Successfully',
  updated: 'Bug Updated Successfully',
  deleted: 'Bug deleted successfully',
  statusChanged: 'Bug status updated successfully',
  checklistUpdated: 'Checklist updated',
} as const;

export const tags = ['bugs'];
export const answerSchema = z.object({ message: z.string(), bug: bugDtoSchema });
export const answerHeaders = { ...positionHeaders, ETag: 'The bug `version`, quoted: send it back as If-Match' };
const stale = errorAnswer('Stale change (If-Match)');
const statusValue = z
  .string()
  .describe('Open, In Progress, Closed, or Pending (= Open), Resolved (= Closed); any case');

/** Bug ids are opaque strings; one that cannot be a bug id is simply not found. */
export const bugParams = {
  schema: z.object({ id: z.string().regex(objectIdPattern) }),
  notFound: bugMessages.notFound,
  openapi: idParam,
};
export const ifMatch = {
  message: 'If-Match must be the bug version',
  openapi: idempotencyHeader.extend({
    'If-Match': z.string().optional().describe('The bug `version` the change was based on: 409 when stale'),
  }),
};

/** The rules the domain checks on a bug payload, with the spec's messages. */
const bugFields = {
  title: 'Required; 5 to 100 characters',
  description: 'Required; at least 10 characters',
  priority: prioritySchema.optional().describe('Any case'),
  severity: severitySchema.optional().describe('Any case'),
  status: statusValue
    .optional()
    .describe('Ignored on create (always Open). On edit: applied when the caller may change status (admin)'),
  module: 'At most 50 characters',
  dueDate: 'ISO date-time or YYYY-MM-DD; not before today (UTC); null for none',
  assignedTo: 'Developer ids (or `{_id}` objects); at least one',
  checklist:
    'Items as strings or `{_id, text, completed}`; completion counts only from an assigned developer or an admin',
  attachments: 'Absolute http(s) links of at most 2,048 characters',
  estimate: 'Hours it is expected to take (a number from 0), or null for none',
  fields:
    'Custom field values by key (`GET /api/projects/{id}/fields`): text, a number, a day (YYYY-MM-DD), an option’s name, a list of option names, a user’s `_id`, an http(s) link; null clears one. A wrong value is 400 naming the field',
} satisfies Record<string, string | z.ZodType>;

/**
 * What a report's or an edit's custom fields need besides the payload: the project's fields and
 * which users the user fields name exist. Undefined when there is nothing to check (no fields sent
 * and, on a report, none the project has).
 */
async function fieldInput(
  deps: WriteApiDeps,
  project: Pick<ProjectStateOf, 'fields'>,
  sent: Readonly<Record<string, unknown>> | null | undefined,
  creating: boolean,
): Promise<FieldInput | undefined> {
  if (!sent && !(creating && project.fields.some((f) => f.required && !f.removed))) return undefined;
  const values = sent ?? {};
  const named = userIdsNamed(project.fields, values);
  const known = named.length > 0 ? await deps.accounts.people(named) : new Map();
  return { defs: project.fields, sent: values, knownUserIds: named.filter((id) => known.has(id)) };
}

/** Which of `ids` are developers, and the private projects each is no member of (an assignment's checks). */
async function developersOf(deps: WriteApiDeps, ids: readonly string[]) {
  const knownDeveloperIds = await deps.accounts.developers(ids);
  const developers = new Map(knownDeveloperIds.map((id) => [id, { role: 'developer' as const }]));
  return { knownDeveloperIds, developersHiddenProjects: await new ProjectRights(deps.pool).hiddenFromEach(developers) };
}

/** The bug after the command, named from the write side's accounts (`known`: people read already). */
export async function answerBug(
  deps: WriteApiDeps,
  message: string,
  handled: Handled<BugState>,
  status: 200 | 201,
  {
    reader,
    known,
    project,
    flat,
  }: { reader: Actor; known?: ReadonlyMap<string, UserRef>; project?: ProjectState; flat?: boolean },
): Promise<CommandAnswer> {
  const bug = await bugAnswer(deps, handled.state as ReportedBug, handled.revision, { reader, known, project });
  // api.md's newer bug commands answer "the bug": its fields at the top, and `message` and `bug` as the others.
  const body = flat ? { ...bug, message, bug } : { message, bug };
  return { status, headers: { ETag: `"${handled.revision}"` }, body };
}

/** The answer of a command that answers "the bug" (api.md "The third surface"). */
export const flatAnswerSchema = bugDtoSchema.extend({ message: z.string(), bug: bugDtoSchema });

/**
 * With `If-Match` the version is pinned (stale: 409 with the domain's message; what only touched
 * comments and due reminders does not count); without it, a change that commutes with the others
 * re-reads and re-decides on a race.
 */
export function pinnedOr(fallback: HandleOptions) {
  return ({ expectedVersion }: CommandRequest<unknown, unknown>): HandleOptions =>
    expectedVersion === undefined
      ? fallback
      : { expectedVersion, staleMessage: bugMessages.staleEdit, harmlessEventTypes: bugSideEventTypes };
}

/**
 * An edit or a delete: pinned when `If-Match` says so; without it, decided once (a lost race is
 * the stale message too, never a silent overwrite of what someone else just changed).
 */
export function editPolicy({ expectedVersion }: CommandRequest<unknown, unknown>): HandleOptions {
  return {
    ...(expectedVersion === undefined ? {} : { expectedVersion }),
    staleMessage: bugMessages.staleEdit,
    harmlessEventTypes: bugSideEventTypes,
  };
}

/** The refusals of a command on one bug. */
export const refusals = { 403: forbiddenAnswer, 404: notFoundAnswer, 409: stale };

/** Metadata for the report's `BugReported` alone (the form's suggestion usage). */
const reportedWith =
  (metadata: ExtraMetadata) =>
  (event: { type: string }): ExtraMetadata | undefined =>
    event.type === 'BugReported' ? metadata : undefined;

/** Each write-api process keeps its own view of the bug number sequence. */
const numbersOf = new WeakMap<WriteApiDeps, BugNumbers>();
function bugNumbers(deps: WriteApiDeps): BugNumbers {
  let numbers = numbersOf.get(deps);
  if (!numbers) {
    numbers = new BugNumbers(deps.pool);
    numbersOf.set(deps, numbers);
  }
  return numbers;
}

/** The reporter and the people a report assigns, read once per request (the decision and the answer name them). */
function reportPeople(
  request: CommandRequest<z.infer<typeof reportPayload>, unknown>,
  deps: WriteApiDeps,
): Promise<ReadonlyMap<string, UserRef & { role: Role }>> {
  return request.once('people', () => deps.accounts.people([request.actor.id, ...(request.body.assignedTo ?? [])]));
}

/** The project a report goes to, read once per request: the one it names (by id or key), else the default. */
function reportProject(
  request: CommandRequest<z.infer<typeof reportPayload>, unknown>,
  deps: WriteApiDeps,
): Promise<ProjectState> {
  return request.once('project', async () =>
    request.body.projectId
      ? projectNamed(deps, request.body.projectId)
      : loadProject(deps, await defaultProjectId(deps)),
  );
}

/** The project a bug is in now, read from the bug's own stream (none yet: its fields are none). */
async function projectOfBug(deps: WriteApiDeps, bugId: string): Promise<Pick<ProjectStateOf, 'fields'>> {
  const { state } = await deps.commands.load(streams.bug(bugId), bugDecider);
  return state.kind === 'reported' ? loadProject(deps, state.projectId) : { fields: [] };
}

export const reportBug = defineCommand({
  method: 'post',
  path: '/',
  summary: 'Report a bug (always Open)',
  tags,
  audience: ['tester', 'admin'],
  admits: (actor) => {
    if (!bugPermissions.canReport(actor)) throw new ForbiddenError(bugWriteMessages.cannotReport);
  },
  body: {
    schema: reportPayload,
    fields: {
      ...bugFields,
      projectId:
        'Its project’s `_id` (or key): one the reporter sees and that is not archived. Absent: the default project (General unless an admin chose another)',
      suggestions:
        "Optional, from the report form: `{ shown, taken }`, the triage suggestion kinds it showed (duplicates, severity, priority, assignees) and those the reporter applied (severity, priority, assignees). Recorded in the BugReported event's metadata. Unknown kinds are dropped; a taken kind counts as shown; anything but lists of words is 400",
    },
  },
  // A retried POST (same Idempotency-Key, same caller) names the same bug, so the event
  // store recognises its events and nothing new is appended.
  stream: ({ newId }) => streams.bug(newId('ReportBug')),
  decider: bugDecider,
  command: async (request, deps) => {
    const { actor, body, context, now } = request;
    const bugId = request.newId('ReportBug');
    const assigneeIds = body.assignedTo ?? [];
    const people = await reportPeople(request, deps);
    const project = await reportProject(request, deps);
    const checklist = toChecklistEntries(body.checklist ?? []).map((i) => i.text);
    const report: Pick<ReportBug, 'type' | 'data'> = {
      type: 'ReportBug',
      data: {
        bugId,
        number: 0,
        project: factsOf(project),
        projectNumber: 0,
        title: body.title ?? '',
        description: body.description ?? '',
        priority: body.priority,
        severity: body.severity,
        module: body.module ?? null,
        dueDate: body.dueDate ?? null,
        assigneeIds,
        knownDeveloperIds: [...new Set(assigneeIds)].filter((id) => people.get(id)?.role === 'developer'),
        checklist,
        attachments: body.attachments ?? [],
        newItemIds: newItemIds(checklist.length, context.idempotencyKey, `${actor.id}:${bugId}`),
        fields: await fieldInput(deps, project, body.fields, true),
        ...(body.estimate !== undefined ? { estimate: body.estimate } : {}),
      },
    };
    // The decider is pure: asked first, it refuses a bad report before the report takes its numbers.
    bugDecider.decide({ ...report, metadata: { actor, now } }, bugDecider.initialState());
    const [number, projectNumber] = await Promise.all([
      bugNumbers(deps).assign(bugId),
      new ProjectBugNumbers(deps.pool).assign(project.id, bugId),
    ]);
    return { ...report, data: { ...report.data, number, projectNumber } };
  },
  // A concurrent retry of the same request loses the race to create the stream; re-reading
  // then finds the winner's events and answers as it did.
  policy: ({ body }) => ({
    mustBeNew: true,
    retryOnConflict: true,
    ...(body.suggestions ? { extraMetadata: reportedWith({ suggestions: body.suggestions }) } : {}),
  }),
  answer: async (handled, request, _command, deps) =>
    answerBug(deps, bugAnswerMessages.reported, handled, 201, {
      reader: request.actor,
      known: await reportPeople(request, deps),
      project: await reportProject(request, deps),
    }),
  responses: {
    201: { description: 'Reported', schema: answerSchema, headers: answerHeaders },
    400: invalidAnswer,
    403: forbiddenAnswer,
    404: errorAnswer(
      `"${projectMessages.notFound}": no such project, or a private one the reporter is not a member of`,
    ),
    409: errorAnswer(`"${bugProjectMessages.archived}"`),
  },
});

export const updateBug = defineCommand({
  method: 'put',
  path: '/:id',
  summary: 'Edit a bug (details, assignees, checklist, links); absent fields stay',
  tags,
  audience: ['admin', 'tester (own)'],
  params: bugParams,
  ifMatch,
  body: {
    schema: bugPayload.extend({
      // With a status of Closed: an admin closes it past its open blockers (api.md "Relations and sub-bugs").
      override: z.boolean({ error: 'override must be true or false' }).optional(),
    }),
    fields: { ...bugFields, override: 'Admins, with status Closed: close it although bugs that block it are open' },
  },
  stream: ({ params }) => streams.bug(params.id),
  decider: bugDecider,
  command: async ({ actor, body, context, params }, deps) => {
    const checklist = body.checklist ? toChecklistEntries(body.checklist) : undefined;
    const assigneeIds = body.assignedTo ?? undefined;
    // The admin form sends its status selector as-is (Pending/In Progress/Resolved); blank = unchanged.
    const status = parseStatusFilter(body.status);
    return {
      type: 'UpdateBug',
      data: {
        bugId: params.id,
        changes: {
          ...(body.title != null ? { title: body.title } : {}),
          ...(body.description != null ? { description: body.description } : {}),
          ...(body.priority ? { priority: body.priority } : {}),
          ...(body.severity ? { severity: body.severity } : {}),
          ...(body.module !== undefined ? { module: body.module } : {}),
          ...(body.dueDate !== undefined ? { dueDate: body.dueDate } : {}),
          ...(assigneeIds ? { assigneeIds } : {}),
          ...(checklist ? { checklist } : {}),
          ...(body.attachments ? { attachments: body.attachments } : {}),
          ...(status ? { status } : {}),
          ...(body.estimate !== undefined ? { estimate: body.estimate } : {}),
        },
        ...(assigneeIds ? await developersOf(deps, assigneeIds) : {}),
        ...(status === 'Closed' ? { openBlockers: await openBlockersOf(deps, params.id) } : {}),
        ...(body.override ? { override: true } : {}),
        newItemIds: newItemIds(checklist?.length ?? 0, context.idempotencyKey, `${actor.id}:${params.id}`),
        ...(body.fields
          ? { fields: await fieldInput(deps, await projectOfBug(deps, params.id), body.fields, false) }
          : {}),
      },
    };
  },
  policy: editPolicy,
  answer: (handled, { actor }, _command, deps) =>
    answerBug(deps, bugAnswerMessages.updated, handled, 200, { reader: actor }),
  responses: {
    200: { description: 'Updated', schema: answerSchema, headers: answerHeaders },
    400: invalidAnswer,
    ...refusals,
    409: errorAnswer('"Blocked by WEB-3: close it first" (every open blocker named), or a stale If-Match'),
  },
});

export const deleteBug = defineCommand({
  method: 'delete',
  path: '/:id',
  summary: 'Delete a bug',
  tags,
  audience: ['admin', 'tester (own)'],
  params: bugParams,
  ifMatch,
  stream: ({ params }) => streams.bug(params.id),
  decider: bugDecider,
  command: ({ params }) => ({ type: 'DeleteBug', data: { bugId: params.id } }),
  policy: editPolicy,
  answer: () => ({ status: 200, body: { message: bugAnswerMessages.deleted } }),
  responses: {
    200: { description: 'Deleted', schema: z.object({ message: z.string() }), headers: positionHeaders },
    ...refusals,
  },
});

export const changeBugStatus = defineCommand({
  method: 'put',
  path: '/:id/status',
  summary: 'Change the status (any to any)',
  tags,
  audience: ['admin', 'developer (assigned)'],
  params: bugParams,
  ifMatch,
  body: {
    schema: statusPayload,
    fields: {
      status: statusValue.describe(`Required: ${bugStatusSchema.options.join(', ')}, or Pending, Resolved; any case`),
      override: 'Admins: true closes it although bugs that block it are open (the history says so)',
    },
  },
  stream: ({ params }) => streams.bug(params.id),
  decider: bugDecider,
  command: async ({ body, params }, deps) => {
    const status = parseStatusValue(body.status);
    return {
      type: 'ChangeBugStatus',
      data: {
        bugId: params.id,
        status,
        // Closing waits for the bugs that block it (an admin may go past them).
        ...(status === 'Closed' ? { openBlockers: await openBlockersOf(deps, params.id) } : {}),
        ...(body.override ? { override: true } : {}),
      },
    };
  },
  policy: pinnedOr({ retryOnConflict: true }),
  answer: (handled, { actor }, _command, deps) =>
    answerBug(deps, bugAnswerMessages.statusChanged, handled, 200, { reader: actor }),
  responses: {
    200: { description: 'Changed', schema: answerSchema, headers: answerHeaders },
    400: invalidAnswer,
    ...refusals,
    409: errorAnswer('"Blocked by WEB-3: close it first" (every open blocker named), or a stale If-Match'),
  },
});

export const setChecklist = defineCommand({
  method: 'put',
  path: '/:id/checklist',
  summary: 'Replace the checklist (matched by _id, else by position)',
  tags,
  audience: ['admin', 'developer (assigned)', 'tester (own, text only)'],
  params: bugParams,
  ifMatch,
  body: { schema: checklistPayload, fields: { checklist: bugFields.checklist } },
  stream: ({ params }) => streams.bug(params.id),
  decider: bugDecider,
  command: ({ actor, body, context, params }) => {
    const items = toChecklistEntries(body.checklist);
    return {
      type: 'SetChecklist',
      data: {
        bugId: params.id,
        items,
        newItemIds: newItemIds(items.length, context.idempotencyKey, `${actor.id}:${params.id}`),
      },
    };
  },
  policy: pinnedOr({ retryOnConflict: true }),
  answer: (handled, { actor }, _command, deps) =>
    answerBug(deps, bugAnswerMessages.checklistUpdated, handled, 200, { reader: actor }),
  responses: {
    200: { description: 'Updated', schema: answerSchema, headers: answerHeaders },
    400: invalidAnswer,
    ...refusals,
  },
});

export const archiveBug = defineCommand({
  method: 'put',
  path: '/:id/archived',
  summary: 'Archive a closed bug, or restore it: out of lists and counts (`GET /api/bugs?archived=true` lists them)',
  tags,
  audience: ['admin'],
  params: bugParams,
  ifMatch,
  body: {
    schema: z.object({ archived: z.boolean() }),
    fields: { archived: 'true to archive (the bug must be Closed), false to restore' },
  },
  stream: ({ params }) => streams.bug(params.id),
  decider: bugStreamDecider(decideArchive),
  command: ({ body, params }) => ({ type: 'ArchiveBug', data: { bugId: params.id, archived: body.archived } }),
  policy: pinnedOr({ retryOnConflict: true }),
  answer: (handled, { actor, body }, _command, deps) =>
    answerBug(deps, body.archived ? bugArchiveMessages.archived : bugArchiveMessages.restored, handled, 200, {
      reader: actor,
    }),
  responses: {
    200: { description: 'Archived or restored', schema: answerSchema, headers: answerHeaders },
    400: invalidAnswer,
    ...refusals,
  },
});

export const moveBug = defineCommand({
  method: 'put',
  path: '/:id/project',
  summary: 'Move a bug to another project: it takes a new key there, and its old key still names it',
  tags,
  audience: ['admin', 'tester (own, member of both projects)', 'developer (own, member of both projects)'],
  params: bugParams,
  ifMatch,
  body: {
    schema: projectIdBody,
    fields: { projectId: 'The project’s `_id` (or key): one the caller sees and that is not archived' },
  },
  stream: ({ params }) => streams.bug(params.id),
  decider: bugStreamDecider(decideMove),
  command: async (request, deps) => {
    const { actor, body, now, params } = request;
    // The project it is in now (its members may move it out), read from the bug's own stream.
    const { state } = await deps.commands.load(streams.bug(params.id), bugDecider);
    const fromId = state.kind === 'reported' ? state.projectId : legacyProjectId;
    const [from, to] = await Promise.all([loadProject(deps, fromId), projectNamed(deps, body.projectId)]);
    const move: MoveBug = {
      type: 'MoveBug',
      data: { bugId: params.id, from: factsOf(from), to: factsOf(to), projectNumber: 1 },
      metadata: { actor, now },
    };
    // Asked first, the decider refuses a move before it takes a number in the project.
    const moves = decideMove(move, state).length > 0;
    const projectNumber = moves ? await new ProjectBugNumbers(deps.pool).assign(to.id, params.id) : 1;
    return { type: move.type, data: { ...move.data, projectNumber } };
  },
  // A place on the old project's board means nothing in the new one: it takes the new one's default.
  policy: (request) => ({
    ...pinnedOr({})(request),
    alongside: async (tx, { state }) => {
      await BugRanks.write(tx, state);
      await writeBugMilestone(tx, state);
    },
  }),
  answer: (handled, { actor }, _command, deps) =>
    answerBug(deps, bugProjectMessages.moved, handled, 200, { reader: actor }),
  responses: {
    200: { description: 'Moved (or already there)', schema: answerSchema, headers: answerHeaders },
    400: invalidAnswer,
    403: forbiddenAnswer,
    404: errorAnswer(
      `"${bugMessages.notFound}", or "${projectMessages.notFound}": no such project, or one the caller cannot see`,
    ),
    409: errorAnswer(`"${bugProjectMessages.archived}", or a stale If-Match`),
  },
});

export const bugCommands = [reportBug, updateBug, deleteBug, changeBugStatus, setChecklist, archiveBug, moveBug];
