import {
  type Actor,
  addRelationBody,
  type BugState,
  bugDecider,
  bugLabelsBody,
  bugMessages,
  bugMilestoneBody,
  bugPermissions,
  bugStreamDecider,
  decideAddRelation,
  decideBugLabels,
  decideBugMilestone,
  decideRank,
  decideRemoveRelation,
  decideSetParent,
  type Event,
  existingBug,
  labelMessages,
  milestoneDecider,
  milestoneMessages,
  NotFoundError,
  type RelationType,
  type ReportedBug,
  rankMessages,
  rankOf,
  relationEdge,
  relationMessages,
  relationTypes,
  type ShownRelationType,
  setParentBody,
  shownRelationTypes,
  streams,
  ValidationError,
} from '@bugtrail/domain';
import { errorAnswer, forbiddenAnswer, invalidAnswer, notFoundAnswer } from '@bugtrail/platform';
import { z } from 'zod';
import { type CommandRequest, defineCommand } from '../command.js';
import type { WriteApiDeps } from '../deps.js';
import { writeBugLabels } from '../labels/label-cleanup.js';
import { LabelTable } from '../labels/label-table.js';
import { writeBugMilestone } from '../milestones/milestones.commands.js';
import { objectIdPattern } from './bug-input.js';
import { BugRanks } from './bug-ranks.js';
import { BugRelations } from './bug-relations.js';
import {
  answerBug,
  answerHeaders,
  bugParams,
  flatAnswerSchema,
  ifMatch,
  pinnedOr,
  refusals,
  tags,
} from './bugs.commands.js';

/**
 * Planning a bug (issue 36): its labels and its place on the board. Each is one declaration on
 * the bug's stream, decided by its feature module (labels.ts, rank.ts).
 */

export const setBugLabels = defineCommand({
  method: 'put',
  path: '/:id/labels',
  summary: 'Set a bug’s labels (the whole list)',
  tags,
  audience: ['admin', 'tester (own)', 'developer (assigned)'],
  params: bugParams,
  ifMatch,
  body: {
    schema: bugLabelsBody,
    fields: { labelIds: `Label ids, at most 20; an unknown one is 400 "${labelMessages.unknown}"` },
  },
  stream: ({ params }) => streams.bug(params.id),
  decider: bugStreamDecider(decideBugLabels),
  command: async ({ body, params }, deps) => ({
    type: 'SetBugLabels',
    data: {
      bugId: params.id,
      labelIds: body.labelIds,
      knownLabelIds: await new LabelTable(deps.pool).existing(body.labelIds),
    },
  }),
  policy: (request) => ({
    ...pinnedOr({ retryOnConflict: true })(request),
    alongside: (tx, { state }) => writeBugLabels(tx, state),
  }),
  answer: (handled, { actor }, _command, deps) =>
    answerBug(deps, 'Labels updated', handled, 200, { reader: actor, flat: true }),
  responses: {
    200: { description: 'Its labels now', schema: flatAnswerSchema, headers: answerHeaders },
    400: invalidAnswer,
    ...refusals,
  },
});

const rankBody = z.object({
  before: z.string({ error: 'before must be a bug id' }).trim().min(1).max(100).optional(),
  after: z.string({ error: 'after must be a bug id' }).trim().min(1).max(100).optional(),
});
type RankBody = z.infer<typeof rankBody>;

/** A neighbour named by the client: a bug the caller sees, in the moved bug's project. */
async function neighbourBug(
  deps: WriteApiDeps,
  request: CommandRequest<RankBody, { id: string }>,
  id: string,
  projectId: string,
): Promise<ReportedBug> {
  if (id === request.params.id) throw ValidationError.field('before', rankMessages.notBeside);
  const { state } = await deps.commands.load(streams.bug(id), bugDecider);
  const bug = existingBug(state, request.actor);
  if (bug.projectId !== projectId)
    throw ValidationError.field('before', 'The bugs named must be in this bug’s project');
  return bug;
}

/**
 * The two ranks the bug goes between. Both neighbours named: between theirs (when they are out of
 * order, someone moved one since: the `before` one alone decides). One named: between it and its
 * own nearest rank on the other side in the project (BugRanks), so the bug lands right beside it.
 */
async function bounds(
  deps: WriteApiDeps,
  request: CommandRequest<RankBody, { id: string }>,
  moved: BugState,
): Promise<{ lo: string | null; hi: string | null }> {
  if (moved.kind !== 'reported') throw new NotFoundError(bugMessages.notFound);
  const { before, after } = request.body;
  if (!before && !after) throw ValidationError.field('before', 'Name the bug it goes before, or after');
  const [beforeBug, afterBug] = await Promise.all([
    before ? neighbourBug(deps, request, before, moved.projectId) : null,
    after ? neighbourBug(deps, request, after, moved.projectId) : null,
  ]);
  const ranks = new BugRanks(deps.pool);
  const hi = beforeBug ? rankOf(beforeBug) : null;
  const lo = afterBug ? rankOf(afterBug) : null;
  if (hi !== null && lo !== null && lo < hi) return { lo, hi };
  if (hi !== null) return { lo: await ranks.neighbour(moved.projectId, hi, 'below', moved.id), hi };
  return { lo, hi: await ranks.neighbour(moved.projectId, lo!, 'above', moved.id) };
}

export const rankBug = defineCommand({
  method: 'put',
  path: '/:id/rank',
  summary: 'Place a bug in its board column: before the bug `before`, after the bug `after`',
  description:
    'Bug answers carry `rank`, a string that sorts ascending (byte by byte). Only the moved bug changes. ' +
    'Naming one neighbour places it right beside that one.',
  tags,
  audience: ['admin', 'tester (own)', 'developer (assigned)'],
  params: bugParams,
  ifMatch,
  body: {
    schema: rankBody,
    fields: {
      before: 'The bug it goes before (same project)',
      after: 'The bug it goes after (same project)',
    },
  },
  stream: ({ params }) => streams.bug(params.id),
  decider: bugStreamDecider(decideRank),
  command: async (request, deps) => {
    // Who may move it is the decider's: asked with open bounds first, so a stranger learns nothing of the neighbours.
    const { state } = await deps.commands.load(streams.bug(request.params.id), bugDecider);
    decideRank({ type: 'RankBug', data: { bugId: request.params.id, lo: null, hi: null }, metadata: request }, state);
    return { type: 'RankBug', data: { bugId: request.params.id, ...(await bounds(deps, request, state)) } };
  },
  policy: (request) => ({
    ...pinnedOr({})(request),
    alongside: (tx, { state }) => BugRanks.write(tx, state),
  }),
  answer: (handled, { actor }, _command, deps) =>
    answerBug(deps, 'Bug moved', handled, 200, { reader: actor, flat: true }),
  responses: {
    200: { description: 'Placed', schema: flatAnswerSchema, headers: answerHeaders },
    400: invalidAnswer,
    403: forbiddenAnswer,
    404: notFoundAnswer,
    409: errorAnswer(`"${rankMessages.boardChanged}", or a stale If-Match`),
  },
});

/** The other bug a relation or a parent names, when the caller may see it (else null: 404). */
async function visibleOther(deps: WriteApiDeps, actor: Actor, id: string): Promise<{ id: string } | null> {
  if (!objectIdPattern.test(id)) return null;
  const { state } = await deps.commands.load(streams.bug(id), bugDecider);
  if (state.kind !== 'reported' || state.deleted || !bugPermissions.canView(actor, state)) return null;
  return { id };
}

/** Whether the relation would close a loop of `blocks`: the blocked bug already blocks the blocker. */
async function closesBlockLoop(deps: WriteApiDeps, bugId: string, type: RelationType, otherId: string) {
  if (type !== 'blocks' && type !== 'blocked_by') return false;
  const edge = relationEdge(bugId, type, otherId);
  return new BugRelations(deps.pool).blocksTransitively(edge.to, edge.from);
}

const relationAnswers = {
  400: invalidAnswer,
  403: forbiddenAnswer,
  404: notFoundAnswer,
  409: errorAnswer('A stale If-Match'),
};
const linkPolicy = (request: CommandRequest<unknown, unknown>) => ({
  ...pinnedOr({ retryOnConflict: true })(request),
  alongside: (
    tx: Parameters<typeof BugRelations.write>[0],
    decided: { state: BugState; newEvents: readonly Event[] },
  ) => BugRelations.write(tx, decided.state, decided.newEvents),
});

export const addRelation = defineCommand({
  method: 'post',
  path: '/:id/relations',
  summary: 'Relate the bug to another: blocks, blocked_by, duplicate_of or relates_to',
  description:
    'Both bugs show it (the other with the inverse name). A bug that blocks itself, through others too, is 400 "That would make a cycle". ' +
    '`duplicate_of` closes the duplicate when open, and its reporter hears of the original from then on.',
  tags,
  audience: ['admin', 'tester (own)', 'developer (assigned)'],
  params: bugParams,
  ifMatch,
  body: {
    schema: addRelationBody,
    fields: { type: relationTypes.join(', '), bugId: 'The other bug: one the caller may see' },
  },
  stream: ({ params }) => streams.bug(params.id),
  decider: bugStreamDecider(decideAddRelation),
  command: async ({ actor, body, params }, deps) => {
    const edge = relationEdge(params.id, body.type, body.bugId);
    const [other, exists, wouldCycle] = await Promise.all([
      body.bugId === params.id ? { id: params.id } : visibleOther(deps, actor, body.bugId),
      new BugRelations(deps.pool).has(edge),
      closesBlockLoop(deps, params.id, body.type, body.bugId),
    ]);
    return {
      type: 'AddRelation',
      data: { bugId: params.id, otherBugId: body.bugId, type: body.type, other, exists, wouldCycle },
    };
  },
  policy: linkPolicy,
  answer: (handled, { actor }, _command, deps) =>
    answerBug(deps, 'Relation added', handled, handled.newEvents.length > 0 ? 201 : 200, { reader: actor, flat: true }),
  responses: {
    201: { description: 'Related', schema: flatAnswerSchema, headers: answerHeaders },
    200: { description: 'Related so already: nothing changed', schema: flatAnswerSchema, headers: answerHeaders },
    ...relationAnswers,
  },
});

export const removeRelation = defineCommand({
  method: 'delete',
  path: '/:id/relations/:otherBugId',
  summary: 'Remove a relation (`?type=` says which, as this bug names it)',
  tags,
  audience: ['admin', 'tester (own)', 'developer (assigned)'],
  params: {
    schema: z.object({ id: z.string().regex(objectIdPattern), otherBugId: z.string().regex(objectIdPattern) }),
    notFound: { id: bugMessages.notFound, otherBugId: relationMessages.relationNotFound },
    openapi: z.object({ id: z.string(), otherBugId: z.string().describe('The other bug’s `_id`') }),
  },
  ifMatch,
  query: z.object({
    type: z
      .enum(shownRelationTypes, { error: `type must be one of ${shownRelationTypes.join(', ')}` })
      .describe('The relation as this bug names it'),
  }),
  stream: ({ params }) => streams.bug(params.id),
  decider: bugStreamDecider(decideRemoveRelation),
  command: async ({ params, query }, deps) => {
    const type = query.type as ShownRelationType;
    return {
      type: 'RemoveRelation',
      data: {
        bugId: params.id,
        otherBugId: params.otherBugId,
        type,
        exists: await new BugRelations(deps.pool).has(relationEdge(params.id, type, params.otherBugId)),
      },
    };
  },
  policy: linkPolicy,
  answer: (handled, { actor }, _command, deps) =>
    answerBug(deps, 'Relation removed', handled, 200, { reader: actor, flat: true }),
  responses: {
    200: { description: 'Removed', schema: flatAnswerSchema, headers: answerHeaders },
    ...relationAnswers,
    404: errorAnswer(`"${bugMessages.notFound}", or "${relationMessages.relationNotFound}"`),
  },
});

export const setParent = defineCommand({
  method: 'put',
  path: '/:id/parent',
  summary: 'Make the bug a sub-bug of another (`parentId`), or of none (null)',
  description:
    'A parent that is the bug itself, or one of its own sub-bugs (at any depth), is 400 "That would make a cycle".',
  tags,
  audience: ['admin', 'tester (own)', 'developer (assigned)'],
  params: bugParams,
  ifMatch,
  body: { schema: setParentBody, fields: { parentId: 'A bug the caller may see, or null' } },
  stream: ({ params }) => streams.bug(params.id),
  decider: bugStreamDecider(decideSetParent),
  command: async ({ actor, body, params }, deps) => {
    const parentId = body.parentId;
    const [parent, wouldCycle] =
      parentId === null || parentId === params.id
        ? [parentId === null ? null : { id: parentId }, false]
        : await Promise.all([
            visibleOther(deps, actor, parentId),
            new BugRelations(deps.pool).isAncestor(params.id, parentId),
          ]);
    return { type: 'SetParent', data: { bugId: params.id, parentId, parent, wouldCycle } };
  },
  policy: linkPolicy,
  answer: (handled, { actor }, _command, deps) =>
    answerBug(deps, 'Parent set', handled, 200, { reader: actor, flat: true }),
  responses: {
    200: { description: 'Its parent now', schema: flatAnswerSchema, headers: answerHeaders },
    ...relationAnswers,
  },
});

export const setBugMilestone = defineCommand({
  method: 'put',
  path: '/:id/milestone',
  summary: 'Plan the bug into one of its project’s milestones, or none (null)',
  tags,
  audience: ['admin', 'tester (own)', 'developer (assigned)'],
  params: bugParams,
  ifMatch,
  body: { schema: bugMilestoneBody, fields: { milestoneId: 'A milestone of the bug’s project, or null' } },
  stream: ({ params }) => streams.bug(params.id),
  decider: bugStreamDecider(decideBugMilestone),
  command: async ({ body, params }, deps) => {
    const milestoneId = body.milestoneId;
    let milestone: { id: string; projectId: string } | null = null;
    if (milestoneId !== null) {
      const { state } = await deps.commands.load(streams.milestone(milestoneId), milestoneDecider);
      if (state.exists && !state.deleted) milestone = { id: state.id, projectId: state.projectId };
    }
    return { type: 'SetBugMilestone', data: { bugId: params.id, milestoneId, milestone } };
  },
  policy: (request) => ({
    ...pinnedOr({ retryOnConflict: true })(request),
    alongside: (tx, { state }) => writeBugMilestone(tx, state),
  }),
  answer: (handled, { actor }, _command, deps) =>
    answerBug(deps, 'Milestone set', handled, 200, { reader: actor, flat: true }),
  responses: {
    200: { description: 'Its milestone now', schema: flatAnswerSchema, headers: answerHeaders },
    400: invalidAnswer,
    ...refusals,
    404: errorAnswer(`"${bugMessages.notFound}", or "${milestoneMessages.notFound}"`),
  },
});

export const planningCommands = [setBugLabels, rankBug, addRelation, removeRelation, setParent, setBugMilestone];
