import {
  bugStreamDecider,
  decideWorklog,
  ForbiddenError,
  logWorkBody,
  streams,
  worklogMessages,
} from '@bugtrail/domain';
import { errorAnswer, invalidAnswer } from '@bugtrail/platform';
import { z } from 'zod';
import { defineCommand } from '../command.js';
import { bugAnswer } from './bug-input.js';
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
 * Time on a bug (api.md "Custom fields, workflow states and time", issue 37): its assigned
 * developers and admins log minutes on a day; whoever logged an entry (or an admin) deletes it;
 * those who edit or work on the bug estimate it. Each is an event of the bug's stream.
 */
const decider = bugStreamDecider(decideWorklog);
const entryParams = {
  schema: z.object({ id: bugParams.schema.shape.id, entryId: z.string().trim().min(1).max(100) }),
  notFound: { id: 'Bug not found', entryId: worklogMessages.notFound },
  openapi: z.object({
    id: z.string().describe('The bug’s `_id`'),
    entryId: z.string().describe('The entry’s `_id`'),
  }),
};

const entrySchema = z.object({
  _id: z.string(),
  bugId: z.string(),
  user: z.object({ _id: z.string(), name: z.string() }),
  minutes: z.number().int(),
  on: z.string().describe('YYYY-MM-DD'),
  note: z.string(),
});

export const logWork = defineCommand({
  method: 'post',
  path: '/:id/worklog',
  summary: 'Log time on a bug (its assigned developers, admins)',
  tags: [...tags, 'time'],
  audience: ['admin', 'developer (assigned)'],
  params: bugParams,
  body: {
    schema: logWorkBody,
    fields: {
      minutes: 'Whole minutes, 1 to 1440',
      on: 'The day the work was done (YYYY-MM-DD), not after today',
      note: 'At most 500 characters',
    },
  },
  stream: ({ params }) => streams.bug(params.id),
  decider,
  command: ({ body, params, newId }) => ({
    type: 'LogWork',
    data: { bugId: params.id, entryId: newId('LogWork'), minutes: body.minutes, on: body.on, note: body.note ?? '' },
  }),
  policy: { retryOnConflict: true },
  answer: async (handled, request, command, deps) => {
    const entryId = (command.data as { entryId: string }).entryId;
    const state = handled.state;
    const entry = state.kind === 'reported' ? state.worklog.find((e) => e.id === entryId) : undefined;
    const [bug, people] = await Promise.all([
      bugAnswer(deps, state as never, handled.revision, { reader: request.actor }),
      deps.accounts.refs([entry?.userId ?? request.actor.id]),
    ]);
    const userId = entry?.userId ?? request.actor.id;
    return {
      status: 201,
      headers: { ETag: `"${handled.revision}"` },
      body: {
        _id: entryId,
        bugId: request.params.id,
        user: { _id: userId, name: people.get(userId)?.name ?? '' },
        minutes: entry?.minutes ?? 0,
        on: entry?.on ?? '',
        note: entry?.note ?? '',
        bug,
      },
    };
  },
  responses: {
    201: {
      description: 'The entry, and the bug with its time spent',
      schema: entrySchema.extend({ bug: flatAnswerSchema.omit({ message: true, bug: true }) }),
      headers: answerHeaders,
    },
    400: invalidAnswer,
    ...refusals,
  },
});

export const deleteWorkEntry = defineCommand({
  method: 'delete',
  path: '/:id/worklog/:entryId',
  summary: 'Delete a worklog entry (whoever logged it, admins)',
  tags: [...tags, 'time'],
  audience: ['admin', 'developer (the one who logged it)'],
  // Testers never log time: theirs is no entry to look for (403 at the door, not 404).
  admits: (actor) => {
    if (actor.role === 'tester') throw new ForbiddenError(worklogMessages.notYours);
  },
  params: entryParams,
  stream: ({ params }) => streams.bug(params.id),
  decider,
  command: ({ params }) => ({ type: 'DeleteWorkEntry', data: { bugId: params.id, entryId: params.entryId } }),
  policy: ({ params }) => ({ retryOnConflict: true, naturalKey: `worklog:${params.entryId}` }),
  answer: (handled, { actor }, _command, deps) =>
    answerBug(deps, 'Worklog entry deleted', handled, 200, { reader: actor }),
  responses: {
    200: {
      description: 'Deleted',
      schema: z.object({ message: z.string(), bug: flatAnswerSchema.omit({ message: true, bug: true }) }),
      headers: answerHeaders,
    },
    403: errorAnswer(`"${worklogMessages.notYours}"`),
    404: errorAnswer(`"Bug not found", or "${worklogMessages.notFound}"`),
  },
});

export const estimateBug = defineCommand({
  method: 'put',
  path: '/:id/estimate',
  summary: 'Estimate a bug in hours, or clear its estimate (null)',
  tags: [...tags, 'time'],
  audience: ['admin', 'tester (own)', 'developer (assigned)'],
  params: bugParams,
  ifMatch,
  body: {
    schema: z.object({ estimate: z.number({ error: worklogMessages.estimate }).nullable() }),
    fields: { estimate: 'Hours (a number from 0), or null' },
  },
  stream: ({ params }) => streams.bug(params.id),
  decider,
  command: ({ body, params }) => ({ type: 'EstimateBug', data: { bugId: params.id, hours: body.estimate } }),
  policy: pinnedOr({ retryOnConflict: true }),
  answer: (handled, { actor }, _command, deps) =>
    answerBug(deps, 'Estimate set', handled, 200, { reader: actor, flat: true }),
  responses: {
    200: { description: 'Its estimate now', schema: flatAnswerSchema, headers: answerHeaders },
    400: invalidAnswer,
    ...refusals,
  },
});

export const worklogCommands = [logWork, deleteWorkEntry, estimateBug];
