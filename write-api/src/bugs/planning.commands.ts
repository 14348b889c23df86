import {
  type BugState,
  bugDecider,
  bugLabelsBody,
  bugMessages,
  bugStreamDecider,
  decideBugLabels,
  decideRank,
  existingBug,
  labelMessages,
  NotFoundError,
  type ReportedBug,
  rankMessages,
  rankOf,
  streams,
  ValidationError,
} from '@bugtrail/domain';
import { errorAnswer, forbiddenAnswer, invalidAnswer, notFoundAnswer } from '@bugtrail/platform';
import { z } from 'zod';
import { type CommandRequest, defineCommand } from '../command.js';
import type { WriteApiDeps } from '../deps.js';
import { writeBugLabels } from '../labels/label-cleanup.js';
import { LabelTable } from '../labels/label-table.js';
import { BugRanks } from './bug-ranks.js';
import {
  answerBug,
  answerHeaders,
  answerSchema,
  bugParams,
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
  answer: (handled, _request, _command, deps) => answerBug(deps, 'Labels updated', handled, 200),
  responses: {
    200: { description: 'Its labels now', schema: answerSchema, headers: answerHeaders },
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
  answer: (handled, _request, _command, deps) => answerBug(deps, 'Bug moved', handled, 200),
  responses: {
    200: { description: 'Placed', schema: answerSchema, headers: answerHeaders },
    400: invalidAnswer,
    403: forbiddenAnswer,
    404: notFoundAnswer,
    409: errorAnswer(`"${rankMessages.boardChanged}", or a stale If-Match`),
  },
});

export const planningCommands = [setBugLabels, rankBug];
