import {
  ConflictError,
  createLabelBody,
  type LabelState,
  labelDecider,
  labelDtoSchema,
  labelMessages,
  streams,
  updateLabelBody,
} from '@bugtrail/domain';
import { errorAnswer, forbiddenAnswer, invalidAnswer } from '@bugtrail/platform';
import { z } from 'zod';
import { defineCommand } from '../command.js';
import { positionHeaders } from '../commands.openapi.js';
import type { WriteApiDeps } from '../deps.js';
import { dropDeletedLabel } from './label-cleanup.js';
import { LabelTable } from './label-table.js';

/**
 * Labels (api.md "Labels", issue 36): admins make, change and delete them. Each is one stream;
 * its name is claimed in the append's transaction (LabelTable), so two labels never share one.
 */
const tags = ['labels'];
const labelParams = {
  schema: z.object({ id: z.string().trim().min(1).max(100) }),
  notFound: labelMessages.notFound,
  openapi: z.object({ id: z.string().describe('The label’s `_id`') }),
};
const fields = {
  name: 'Required, at most 50 characters; unique whatever its case',
  color: '`#rrggbb`',
  description: 'At most 500 characters',
};

const labelDto = (state: LabelState) => ({
  _id: state.id,
  name: state.name,
  color: state.color,
  description: state.description,
});
const labelAnswer = { description: 'The label', schema: labelDtoSchema, headers: positionHeaders };
const exists = errorAnswer(`"${labelMessages.exists}"`);

/** Refused before anything is appended: the append's claim stays the last word in a race. */
async function refuseTakenName(deps: WriteApiDeps, name: string | undefined, exceptId?: string) {
  if (name !== undefined && (await new LabelTable(deps.pool).nameTaken(name, exceptId))) {
    throw new ConflictError(labelMessages.exists);
  }
}

export const createLabel = defineCommand({
  method: 'post',
  path: '/',
  summary: 'Create a label (admins)',
  tags,
  roles: ['admin'],
  body: { schema: createLabelBody, fields },
  stream: ({ newId }) => streams.label(newId('CreateLabel')),
  decider: labelDecider,
  command: async ({ body, newId }, deps) => {
    await refuseTakenName(deps, body.name);
    return {
      type: 'CreateLabel',
      data: { labelId: newId('CreateLabel'), name: body.name, color: body.color, description: body.description ?? '' },
    };
  },
  policy: { mustBeNew: true, alongside: (tx, { state }) => LabelTable.write(tx, state) },
  answer: (handled) => ({ status: 201, body: labelDto(handled.state) }),
  responses: { 201: labelAnswer, 400: invalidAnswer, 403: forbiddenAnswer, 409: exists },
});

export const updateLabel = defineCommand({
  method: 'patch',
  path: '/:id',
  summary: 'Rename, recolour or redescribe a label (admins); its bugs show the change',
  tags,
  roles: ['admin'],
  params: labelParams,
  body: { schema: updateLabelBody, fields },
  stream: ({ params }) => streams.label(params.id),
  decider: labelDecider,
  command: async ({ body, params }, deps) => {
    await refuseTakenName(deps, body.name, params.id);
    return {
      type: 'ChangeLabel',
      data: {
        labelId: params.id,
        ...(body.name !== undefined ? { name: body.name } : {}),
        ...(body.color !== undefined ? { color: body.color } : {}),
        ...(body.description !== undefined ? { description: body.description ?? '' } : {}),
      },
    };
  },
  policy: { retryOnConflict: true, alongside: (tx, { state }) => LabelTable.write(tx, state) },
  answer: (handled) => ({ status: 200, body: labelDto(handled.state) }),
  responses: {
    200: labelAnswer,
    400: invalidAnswer,
    403: forbiddenAnswer,
    404: errorAnswer(`"${labelMessages.notFound}"`),
    409: exists,
  },
});

export const deleteLabel = defineCommand({
  method: 'delete',
  path: '/:id',
  summary: 'Delete a label (admins): every bug loses it, each by an event of its own',
  description:
    'The bugs stop showing it at once; the label cleanup reactor then appends `BugLabelsRemoved` to each, so their histories say so.',
  tags,
  roles: ['admin'],
  params: labelParams,
  stream: ({ params }) => streams.label(params.id),
  decider: labelDecider,
  command: ({ params }) => ({ type: 'DeleteLabel', data: { labelId: params.id } }),
  policy: ({ params }) => ({
    retryOnConflict: true,
    naturalKey: `delete-label:${params.id}`,
    alongside: (tx, { state }) => LabelTable.write(tx, state),
  }),
  answer: async (_handled, { actor }, command, deps) => {
    // Its bugs' own events come after the delete's: the answer waits for them too (read-your-writes).
    const { last } = await dropDeletedLabel(deps.pool, deps.commands, command.data.labelId, actor);
    if (!last) return { status: 200, body: { message: 'Label deleted' } };
    const caughtUp = await deps.changeFeed.waitFor(last, deps.config.readYourWritesTimeoutMs);
    return {
      status: 200,
      headers: { 'X-Event-Position': last, ...(caughtUp ? {} : { 'X-Read-Model-Lag': '1' }) },
      body: { message: 'Label deleted' },
    };
  },
  responses: {
    200: { description: 'Deleted', schema: z.object({ message: z.string() }), headers: positionHeaders },
    403: forbiddenAnswer,
    404: errorAnswer(`"${labelMessages.notFound}"`),
  },
});

export const labelCommands = [createLabel, updateLabel, deleteLabel];
