import { randomUUID } from 'node:crypto';
import {
  type Actor,
  type BugState,
  bugStreamDecider,
  createMilestoneBody,
  decideDropDeletedMilestone,
  type MilestoneProject,
  type MilestoneState,
  milestoneDecider,
  milestoneDtoSchema,
  milestoneMessages,
  minutesOf,
  projectMessages,
  type ReportedBug,
  streams,
  updateMilestoneBody,
} from '@bugtrail/domain';
import type { CommandHandler } from '@bugtrail/eventstore';
import { errorAnswer, forbiddenAnswer, invalidAnswer } from '@bugtrail/platform';
import type pg from 'pg';
import { z } from 'zod';
import { loadBugs } from '../bugs/bug-relations.js';
import { defineCommand } from '../command.js';
import { positionHeaders } from '../commands.openapi.js';
import type { WriteApiDeps } from '../deps.js';
import { loadProject, projectNamed } from '../projects/project-facts.js';

/**
 * Milestones (api.md "Milestones", issue 36): admins and a project's leads plan them. Each is one
 * stream; which bugs are in which is `write_api.bug_milestones` (written with each bug's
 * `BugMilestoneSet`, ADR 026), so a deleted milestone's bugs leave it by events of their own,
 * before the delete answers (and at the next start when a process stopped mid-way).
 */
const dropDecider = bugStreamDecider(decideDropDeletedMilestone);

/** Takes every bug out of a deleted milestone; each removal's event id derives from the milestone and the bug. */
export async function dropDeletedMilestone(
  pool: pg.Pool,
  commands: CommandHandler,
  milestoneId: string,
  actor: Actor | null,
): Promise<string | null> {
  const { rows } = await pool.query<{ bug_id: string }>(
    'select bug_id from write_api.bug_milestones where milestone_id = $1 order by bug_id',
    [milestoneId],
  );
  let last: string | null = null;
  for (const { bug_id: bugId } of rows) {
    const handled = await commands.handle(
      streams.bug(bugId),
      dropDecider,
      {
        type: 'DropDeletedMilestone',
        data: { bugId, milestoneId },
        metadata: { actor, now: new Date().toISOString() },
      },
      { actor, correlationId: randomUUID(), idempotencyKey: null },
      {
        retryOnConflict: true,
        naturalKey: `milestone-deleted:${milestoneId}:${bugId}`,
        alongside: (tx, { state }) => writeBugMilestone(tx, state),
      },
    );
    if (handled.position && (last === null || handled.position > last)) last = handled.position;
    if (handled.newEvents.length === 0 || handled.replayed) {
      await pool.query('delete from write_api.bug_milestones where bug_id = $1 and milestone_id = $2', [
        bugId,
        milestoneId,
      ]);
    }
  }
  return last;
}

/** At start: the bugs still in a deleted milestone (a delete cut short) leave it. */
export async function finishMilestoneCleanup(pool: pg.Pool, commands: CommandHandler): Promise<void> {
  const { rows } = await pool.query<{ milestone_id: string }>(
    'select distinct milestone_id from write_api.bug_milestones',
  );
  for (const { milestone_id: id } of rows) {
    const { state } = await commands.load(streams.milestone(id), milestoneDecider);
    if (state.deleted) await dropDeletedMilestone(pool, commands, id, null);
  }
}
const tags = ['milestones'];
const id = z.string().trim().min(1).max(100);

/** The bug's milestone as the decided state has it (a move to another project leaves it). */
export async function writeBugMilestone(tx: pg.ClientBase, state: BugState): Promise<void> {
  if (state.kind !== 'reported') return;
  await tx.query(
    state.milestoneId === null
      ? 'delete from write_api.bug_milestones where bug_id = $1'
      : `insert into write_api.bug_milestones (bug_id, milestone_id) values ($1, $2)
         on conflict (bug_id) do update set milestone_id = excluded.milestone_id`,
    state.milestoneId === null ? [state.id] : [state.id, state.milestoneId],
  );
}

const projectFacts = (state: Awaited<ReturnType<typeof loadProject>>): MilestoneProject => ({
  exists: state.exists,
  id: state.id,
  private: state.private,
  members: state.members,
});

/** A milestone as answers show it; its progress counted from the write side's rows and the bugs' streams. */
async function milestoneDto(deps: WriteApiDeps, state: MilestoneState) {
  const { rows } = await deps.pool.query<{ bug_id: string }>(
    'select bug_id from write_api.bug_milestones where milestone_id = $1',
    [state.id],
  );
  const bugs = [
    ...(
      await loadBugs(
        deps,
        rows.map((r) => r.bug_id),
      )
    ).values(),
  ].filter((b) => b.milestoneId === state.id);
  return {
    _id: state.id,
    projectId: state.projectId,
    name: state.name,
    description: state.description,
    startDate: state.startDate,
    dueDate: state.dueDate,
    closedAt: state.closedAt,
    progress: { total: bugs.length, closed: bugs.filter((b) => b.status === 'Closed').length },
    ...timeOf(bugs),
  };
}

/** A milestone's estimate and time spent (issue 37): its bugs' together, in hours. */
function timeOf(bugs: readonly ReportedBug[]) {
  const live = bugs.filter((b) => !b.deleted);
  const spentMinutes = live.reduce((sum, b) => sum + minutesOf(b.worklog), 0);
  return {
    estimate: Math.round(live.reduce((sum, b) => sum + (b.estimate ?? 0), 0) * 100) / 100,
    spent: Math.round((spentMinutes / 60) * 100) / 100,
    spentMinutes,
  };
}

const answer = { description: 'The milestone', schema: milestoneDtoSchema, headers: positionHeaders };
const fields = {
  name: 'Required, at most 100 characters',
  description: 'At most 5,000 characters (Markdown)',
  startDate: 'YYYY-MM-DD, or null',
  dueDate: 'YYYY-MM-DD, or null; not before the start date',
};

export const createMilestone = defineCommand({
  method: 'post',
  path: '/:id/milestones',
  summary: 'Plan a milestone in a project (admins and its leads)',
  tags,
  audience: ['admin', 'tester (project lead)', 'developer (project lead)'],
  params: {
    schema: z.object({ id }),
    notFound: projectMessages.notFound,
    openapi: z.object({ id: z.string().describe('The project’s `_id` (or key)') }),
  },
  body: { schema: createMilestoneBody, fields },
  stream: ({ newId }) => streams.milestone(newId('CreateMilestone')),
  decider: milestoneDecider,
  command: async ({ body, params, newId }, deps) => ({
    type: 'CreateMilestone',
    data: {
      milestoneId: newId('CreateMilestone'),
      project: projectFacts(await projectNamed(deps, params.id)),
      name: body.name,
      description: body.description ?? '',
      startDate: body.startDate ?? null,
      dueDate: body.dueDate ?? null,
    },
  }),
  policy: { mustBeNew: true },
  answer: async (handled, _request, _command, deps) => ({ status: 201, body: await milestoneDto(deps, handled.state) }),
  responses: {
    201: answer,
    400: invalidAnswer,
    403: errorAnswer(`"${milestoneMessages.adminsAndLeads}"`),
    404: errorAnswer(`"${projectMessages.notFound}"`),
  },
});

const milestoneParams = {
  schema: z.object({ id }),
  notFound: milestoneMessages.notFound,
  openapi: z.object({ id: z.string().describe('The milestone’s `_id`') }),
};

/** The milestone's project, from the milestone's own stream. */
async function projectOf(deps: WriteApiDeps, milestoneId: string): Promise<MilestoneProject> {
  const { state } = await deps.commands.load(streams.milestone(milestoneId), milestoneDecider);
  return state.exists
    ? projectFacts(await loadProject(deps, state.projectId))
    : { exists: false, id: '', private: false, members: {} };
}

export const updateMilestone = defineCommand({
  method: 'patch',
  path: '/:id',
  summary:
    'Change a milestone: name, description, dates; `closed` closes or reopens it (admins and its project’s leads)',
  tags,
  audience: ['admin', 'tester (project lead)', 'developer (project lead)'],
  params: milestoneParams,
  body: { schema: updateMilestoneBody, fields: { ...fields, closed: 'true closes it, false reopens it' } },
  stream: ({ params }) => streams.milestone(params.id),
  decider: milestoneDecider,
  command: async ({ body, params }, deps) => ({
    type: 'UpdateMilestone',
    data: {
      project: await projectOf(deps, params.id),
      ...(body.name !== undefined ? { name: body.name } : {}),
      ...(body.description !== undefined ? { description: body.description ?? '' } : {}),
      ...(body.startDate !== undefined ? { startDate: body.startDate } : {}),
      ...(body.dueDate !== undefined ? { dueDate: body.dueDate } : {}),
      ...(body.closed !== undefined ? { closed: body.closed } : {}),
    },
  }),
  policy: { retryOnConflict: true },
  answer: async (handled, _request, _command, deps) => ({ status: 200, body: await milestoneDto(deps, handled.state) }),
  responses: {
    200: answer,
    400: invalidAnswer,
    403: errorAnswer(`"${milestoneMessages.adminsAndLeads}"`),
    404: errorAnswer(`"${milestoneMessages.notFound}"`),
  },
});

export const deleteMilestone = defineCommand({
  method: 'delete',
  path: '/:id',
  summary: 'Delete a milestone (admins and its project’s leads): its bugs leave it, each by an event of its own',
  tags,
  audience: ['admin', 'tester (project lead)', 'developer (project lead)'],
  params: milestoneParams,
  stream: ({ params }) => streams.milestone(params.id),
  decider: milestoneDecider,
  command: async ({ params }, deps) => ({
    type: 'DeleteMilestone',
    data: { project: await projectOf(deps, params.id) },
  }),
  policy: { retryOnConflict: true },
  answer: async (_handled, { actor, params }, _command, deps) => {
    // Its bugs' own events come after the delete's: the answer waits for them too (read-your-writes).
    const last = await dropDeletedMilestone(deps.pool, deps.commands, params.id, actor);
    if (!last) return { status: 200, body: { message: 'Milestone deleted' } };
    const caughtUp = await deps.changeFeed.waitFor(last, deps.config.readYourWritesTimeoutMs);
    return {
      status: 200,
      headers: { 'X-Event-Position': last, ...(caughtUp ? {} : { 'X-Read-Model-Lag': '1' }) },
      body: { message: 'Milestone deleted' },
    };
  },
  responses: {
    200: { description: 'Deleted', schema: z.object({ message: z.string() }), headers: positionHeaders },
    403: forbiddenAnswer,
    404: errorAnswer(`"${milestoneMessages.notFound}"`),
  },
});

export const projectMilestoneCommands = [createMilestone];
export const milestoneCommands = [updateMilestone, deleteMilestone];
