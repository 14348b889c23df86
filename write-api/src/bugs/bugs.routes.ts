import { randomUUID } from 'node:crypto';
import {
  type BugCommand,
  type BugState,
  bugDecider,
  bugMessages,
  bugPermissions,
  bugSideEventTypes,
  bugWriteMessages,
  ConflictError,
  ForbiddenError,
  NotFoundError,
  parseStatusFilter,
  parseStatusValue,
  type ReportBug,
  type ReportedBug,
  streams,
  type UserRef,
} from '@bugtrail/domain';
import { type CommandContext, deriveEventId, type ExtraMetadata, type HandleOptions } from '@bugtrail/eventstore';
import { type AuthEnv, readJson, requireAuth } from '@bugtrail/platform';
import { type Context, Hono } from 'hono';
import { commandContext, settle, type WriteApiDeps } from '../deps.js';
import { createBugFileRoutes } from './bug-files.routes.js';
import {
  bugAnswer,
  bugIdParam,
  bugPayload,
  checklistPayload,
  ifMatchVersion,
  newItemIds,
  reportPayload,
  statusPayload,
  toChecklistEntries,
} from './bug-input.js';
import { BugNumbers } from './bug-numbers.js';
import { createCommentRoutes } from './comments.routes.js';

/** Metadata for the report's `BugReported` alone (the form's suggestion usage). */
const reportedWith =
  (metadata: ExtraMetadata) =>
  (event: { type: string }): ExtraMetadata | undefined =>
    event.type === 'BugReported' ? metadata : undefined;

export const bugAnswerMessages = {
  reported: 'Bug Reported Successfully',
  updated: 'Bug Updated Successfully',
  deleted: 'Bug deleted successfully',
  statusChanged: 'Bug status updated successfully',
  checklistUpdated: 'Checklist updated',
} as const;

/**
 * Bug commands (api.md "Bugs"): report, edit, delete, status, checklist. Each runs
 * the one write path (read, fold, decide, append with the revision decided on), then
 * waits for the read models (read-your-writes) and answers the bug's DTO.
 */
export function createBugRoutes(deps: WriteApiDeps) {
  const app = new Hono<AuthEnv>();
  const now = () => (deps.now?.() ?? new Date()).toISOString();
  const numbers = new BugNumbers(deps.pool);
  app.use('*', requireAuth(deps.tokens));
  app.route('/', createBugFileRoutes(deps));
  app.route('/', createCommentRoutes(deps));

  /** Runs a bug command; a stale If-Match on an unknown bug is still a 404. */
  async function run(
    c: Context<AuthEnv>,
    context: CommandContext,
    bugId: string,
    command: BugCommand,
    options: HandleOptions = {},
  ) {
    const streamId = streams.bug(bugId);
    try {
      const handled = await deps.commands.handle(streamId, bugDecider, command, context, options);
      await settle(c, deps, handled.position);
      return handled;
    } catch (error) {
      if (error instanceof ConflictError && options.expectedVersion !== undefined) {
        const { revision } = await deps.commands.load(streamId, bugDecider);
        if (revision < 0) throw new NotFoundError(bugMessages.notFound);
      }
      throw error;
    }
  }

  async function answer(
    c: Context<AuthEnv>,
    message: string,
    state: BugState,
    revision: number,
    status: 200 | 201,
    known?: ReadonlyMap<string, UserRef>,
  ) {
    const bug = state as ReportedBug;
    c.header('ETag', `"${revision}"`);
    return c.json({ message, bug: await bugAnswer(deps, bug, revision, known) }, status);
  }

  /** The assignees who are developers, and everyone read on the way (to name them in the answer). */
  async function assigneesAndPeople(actorId: string, assigneeIds: readonly string[]) {
    const people = await deps.accounts.people([actorId, ...assigneeIds]);
    const developers = [...new Set(assigneeIds)].filter((id) => people.get(id)?.role === 'developer');
    return { developers, people };
  }

  app.post('/', async (c) => {
    const actor = c.var.actor;
    if (!bugPermissions.canReport(actor)) throw new ForbiddenError(bugWriteMessages.cannotReport);
    const body = await readJson(c, reportPayload);
    const context = commandContext(c, actor);
    // A retried POST (same Idempotency-Key, same caller) names the same bug, so the
    // event store recognises its events and nothing new is appended.
    const bugId = context.idempotencyKey
      ? deriveEventId(context.idempotencyKey, `${actor.id}:ReportBug`, 0)
      : randomUUID();
    const assigneeIds = body.assignedTo ?? [];
    const { developers, people } = await assigneesAndPeople(actor.id, assigneeIds);
    const checklist = toChecklistEntries(body.checklist ?? []).map((i) => i.text);
    const report: ReportBug = {
      type: 'ReportBug',
      data: {
        bugId,
        number: 0,
        title: body.title ?? '',
        description: body.description ?? '',
        priority: body.priority,
        severity: body.severity,
        module: body.module ?? null,
        dueDate: body.dueDate ?? null,
        assigneeIds,
        knownDeveloperIds: developers,
        checklist,
        attachments: body.attachments ?? [],
        newItemIds: newItemIds(checklist.length, context.idempotencyKey, `${actor.id}:${bugId}`),
      },
      metadata: { actor, now: now() },
    };
    // The decider is pure: asked first, it refuses a bad report before the report takes a number.
    bugDecider.decide(report, bugDecider.initialState());
    const number = await numbers.assign(bugId);
    const handled = await run(
      c,
      context,
      bugId,
      { ...report, data: { ...report.data, number } },
      // A concurrent retry of the same request loses the race to create the stream;
      // re-reading then finds the winner's events and answers as it did.
      {
        mustBeNew: true,
        retryOnConflict: true,
        ...(body.suggestions ? { extraMetadata: reportedWith({ suggestions: body.suggestions }) } : {}),
      },
    );
    return answer(c, bugAnswerMessages.reported, handled.state, handled.revision, 201, people);
  });

  app.put('/:id', async (c) => {
    const actor = c.var.actor;
    const bugId = bugIdParam(c);
    const expectedVersion = ifMatchVersion(c);
    const body = await readJson(c, bugPayload);
    const context = commandContext(c, actor);
    const checklist = body.checklist ? toChecklistEntries(body.checklist) : undefined;
    const assigneeIds = body.assignedTo ?? undefined;
    // The admin form sends its status selector as-is (Pending/In Progress/Resolved); blank = unchanged.
    const status = parseStatusFilter(body.status);
    const handled = await run(
      c,
      context,
      bugId,
      {
        type: 'UpdateBug',
        data: {
          bugId,
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
          },
          knownDeveloperIds: assigneeIds ? await deps.accounts.developers(assigneeIds) : undefined,
          newItemIds: newItemIds(checklist?.length ?? 0, context.idempotencyKey, `${actor.id}:${bugId}`),
        },
        metadata: { actor, now: now() },
      },
      {
        ...(expectedVersion === undefined ? {} : { expectedVersion }),
        staleMessage: bugMessages.staleEdit,
        harmlessEventTypes: bugSideEventTypes,
      },
    );
    return answer(c, bugAnswerMessages.updated, handled.state, handled.revision, 200);
  });

  app.delete('/:id', async (c) => {
    const actor = c.var.actor;
    const bugId = bugIdParam(c);
    const expectedVersion = ifMatchVersion(c);
    await run(
      c,
      commandContext(c, actor),
      bugId,
      { type: 'DeleteBug', data: { bugId }, metadata: { actor, now: now() } },
      {
        ...(expectedVersion === undefined ? {} : { expectedVersion }),
        staleMessage: bugMessages.staleEdit,
        harmlessEventTypes: bugSideEventTypes,
      },
    );
    return c.json({ message: bugAnswerMessages.deleted }, 200);
  });

  app.put('/:id/status', async (c) => {
    const actor = c.var.actor;
    const bugId = bugIdParam(c);
    const expectedVersion = ifMatchVersion(c);
    const body = await readJson(c, statusPayload);
    const status = parseStatusValue(body.status);
    // A status change commutes with other writes: re-read and re-decide on a conflict,
    // unless the client pinned the version it saw.
    const handled = await run(
      c,
      commandContext(c, actor),
      bugId,
      { type: 'ChangeBugStatus', data: { bugId, status }, metadata: { actor, now: now() } },
      expectedVersion === undefined
        ? { retryOnConflict: true }
        : { expectedVersion, staleMessage: bugMessages.staleEdit, harmlessEventTypes: bugSideEventTypes },
    );
    return answer(c, bugAnswerMessages.statusChanged, handled.state, handled.revision, 200);
  });

  app.put('/:id/checklist', async (c) => {
    const actor = c.var.actor;
    const bugId = bugIdParam(c);
    const expectedVersion = ifMatchVersion(c);
    const body = await readJson(c, checklistPayload);
    const items = toChecklistEntries(body.checklist);
    const context = commandContext(c, actor);
    const handled = await run(
      c,
      context,
      bugId,
      {
        type: 'SetChecklist',
        data: { bugId, items, newItemIds: newItemIds(items.length, context.idempotencyKey, `${actor.id}:${bugId}`) },
        metadata: { actor, now: now() },
      },
      expectedVersion === undefined
        ? { retryOnConflict: true }
        : { expectedVersion, staleMessage: bugMessages.staleEdit, harmlessEventTypes: bugSideEventTypes },
    );
    return answer(c, bugAnswerMessages.checklistUpdated, handled.state, handled.revision, 200);
  });

  return app;
}
