import {
  type BugState,
  bugDecider,
  bugStreamDecider,
  decideBugState,
  type ProjectState,
  projectDecider,
  projectMessages,
  setStatesBody,
  stateDtoSchema,
  stateMessages,
  statesOr,
  statesToCount,
  streams,
  toStateDto,
} from '@bugtrail/domain';
import { errorAnswer, invalidAnswer } from '@bugtrail/platform';
import type pg from 'pg';
import { z } from 'zod';
import { openBlockersOf } from '../bugs/bug-relations.js';
import {
  answerBug,
  answerHeaders,
  bugParams,
  tags as bugTags,
  flatAnswerSchema,
  ifMatch,
  pinnedOr,
  refusals,
} from '../bugs/bugs.commands.js';
import { defineCommand } from '../command.js';
import { positionHeaders } from '../commands.openapi.js';
import type { WriteApiDeps } from '../deps.js';
import { loadProject } from './project-facts.js';
import { projectParams } from './projects.commands.js';

/**
 * Workflow states (api.md "Custom fields, workflow states and time", issue 37): a project's
 * states set whole by its admins and leads, and a bug put into one. Which bug chose which state
 * is `write_api.bug_states` (written with its `BugStateChanged`), so a state that holds bugs is
 * not removed; a row a status change has made stale is checked against the bug's stream.
 */

/** How many live bugs of the project hold each of these states now (stale rows are dropped). */
async function holdersOf(deps: WriteApiDeps, projectId: string, stateIds: readonly string[]) {
  const counts: Record<string, number> = {};
  if (stateIds.length === 0) return counts;
  const { rows } = await deps.pool.query<{ bug_id: string; state_id: string }>(
    'select bug_id, state_id from write_api.bug_states where project_id = $1 and state_id = any($2::text[])',
    [projectId, stateIds],
  );
  const stale: string[] = [];
  for (const row of rows) {
    const { state } = await deps.commands.load(streams.bug(row.bug_id), bugDecider);
    const holds =
      state.kind === 'reported' && !state.deleted && state.projectId === projectId && state.stateId === row.state_id;
    if (holds) counts[row.state_id] = (counts[row.state_id] ?? 0) + 1;
    else stale.push(row.bug_id);
  }
  if (stale.length > 0) {
    await deps.pool.query(
      'delete from write_api.bug_states where bug_id = any($1::text[]) and project_id = $2 and state_id = any($3::text[])',
      [stale, projectId, stateIds],
    );
  }
  return counts;
}

/** The state a bug chose, in the append's transaction. */
export async function writeBugState(tx: pg.ClientBase, state: BugState): Promise<void> {
  if (state.kind !== 'reported') return;
  await tx.query(
    state.stateId === null
      ? 'delete from write_api.bug_states where bug_id = $1'
      : `insert into write_api.bug_states (bug_id, project_id, state_id) values ($1, $2, $3)
         on conflict (bug_id) do update set project_id = excluded.project_id, state_id = excluded.state_id`,
    state.stateId === null ? [state.id] : [state.id, state.projectId, state.stateId],
  );
}

const statesAnswer = (state: ProjectState) => ({ states: statesOr(state.states).map(toStateDto) });

export const setProjectStates = defineCommand({
  method: 'put',
  path: '/:id/states',
  summary: 'Set a project’s workflow states, in board order (admins and its leads)',
  description:
    'The whole list: each state keeps its `_id` (renamed, recoloured, moved) or is new; one left out is removed, refused (409) while a bug is in it. Each category (Open, In Progress, Closed) keeps at least one state; a bug’s `status` is always its state’s category.',
  tags: ['projects', 'states'],
  audience: ['admin', 'tester (project lead)', 'developer (project lead)'],
  params: projectParams,
  body: {
    schema: setStatesBody,
    fields: {
      states:
        '`[{ _id?, name, category, color? }]` in board order; `category` Open, In Progress or Closed; `color` #rrggbb',
    },
  },
  stream: ({ params }) => streams.project(params.id),
  decider: projectDecider,
  command: async (request, deps) => {
    const project = await loadProject(deps, request.params.id);
    const sent = request.body.states.map((s) => ({
      ...(s._id !== undefined ? { id: s._id } : {}),
      name: s.name,
      category: s.category,
      ...(s.color !== undefined ? { color: s.color } : {}),
    }));
    // Only a manager's change needs the count (the decider refuses the others first anyway).
    const holders = project.exists ? await holdersOf(deps, project.id, statesToCount(project.states, sent)) : {};
    return {
      type: 'SetProjectStates',
      data: {
        states: sent,
        newIds: sent.map((_, i) => request.newId(`ProjectState:${i}`)),
        holders,
      },
    };
  },
  policy: { retryOnConflict: true },
  answer: (handled) => ({ status: 200, body: statesAnswer(handled.state) }),
  responses: {
    200: {
      description: 'The project’s states now',
      schema: z.object({ states: z.array(stateDtoSchema) }),
      headers: positionHeaders,
    },
    400: invalidAnswer,
    403: errorAnswer(`"${projectMessages.adminsAndLeads}"; auditors change nothing`),
    404: errorAnswer(`"${projectMessages.notFound}" (or one the caller cannot see)`),
    409: errorAnswer('"In review still holds 2 bugs: move them to another state first"'),
  },
});

export const setBugState = defineCommand({
  method: 'put',
  path: '/:id/state',
  summary: 'Put a bug into one of its project’s workflow states',
  description:
    'A state of another category changes the bug’s `status` too (closing waits for its blockers, as the status route does).',
  tags: [...bugTags, 'states'],
  audience: ['admin', 'developer (assigned)', 'tester (own, to close or reopen)'],
  params: bugParams,
  ifMatch,
  body: {
    schema: z.object({
      stateId: z.string({ error: 'stateId is required' }).trim().min(1, 'stateId is required').max(100),
      override: z.boolean({ error: 'override must be true or false' }).optional(),
    }),
    fields: {
      stateId: 'One of the project’s states (`GET /api/projects/{id}/states`)',
      override: 'Admins, into a Closed state: close it although bugs that block it are open',
    },
  },
  stream: ({ params }) => streams.bug(params.id),
  decider: bugStreamDecider(decideBugState),
  command: async ({ body, params }, deps) => {
    const { state } = await deps.commands.load(streams.bug(params.id), bugDecider);
    const project = state.kind === 'reported' ? await loadProject(deps, state.projectId) : null;
    const states = project?.states ?? [];
    const target = statesOr(states).find((s) => s.id === body.stateId);
    return {
      type: 'SetBugState',
      data: {
        bugId: params.id,
        stateId: body.stateId,
        states,
        ...(target?.category === 'Closed' ? { openBlockers: await openBlockersOf(deps, params.id) } : {}),
        ...(body.override ? { override: true } : {}),
      },
    };
  },
  policy: (request) => ({
    ...pinnedOr({ retryOnConflict: true })(request),
    alongside: (tx, { state }) => writeBugState(tx, state),
  }),
  answer: (handled, { actor }, _command, deps) =>
    answerBug(deps, 'Bug state updated successfully', handled, 200, { reader: actor, flat: true }),
  responses: {
    200: { description: 'Its state now', schema: flatAnswerSchema, headers: answerHeaders },
    400: errorAnswer(`"${stateMessages.unknown('…')}", or another invalid input`),
    ...refusals,
    409: errorAnswer('"Blocked by WEB-3: close it first", or a stale If-Match'),
  },
});
