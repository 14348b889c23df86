import {
  createFieldBody,
  fieldDtoSchema,
  fieldMessages,
  type ProjectState,
  projectDecider,
  projectMessages,
  streams,
  toFieldDto,
  updateFieldBody,
} from '@bugtrail/domain';
import { errorAnswer, invalidAnswer } from '@bugtrail/platform';
import { z } from 'zod';
import { type CommandRequest, defineCommand } from '../command.js';
import { positionHeaders } from '../commands.openapi.js';
import { projectParams } from './projects.commands.js';

/**
 * A project's custom fields (api.md "Custom fields, workflow states and time", issue 37): admins
 * and the project's leads add, change and remove them, each change an event of the project's
 * stream. A key is made from the first name and kept; renames and option renames follow on
 * every bug at once (values are kept by id), a removed field stays named in histories.
 */
const tags = ['projects'];
const id = z.string().trim().min(1).max(100);
const fieldParams = {
  schema: z.object({ id, fieldId: id }),
  notFound: { id: projectMessages.notFound, fieldId: fieldMessages.notFound },
  openapi: z.object({
    id: z.string().describe('The project’s `_id`'),
    fieldId: z.string().describe('The field’s `_id`'),
  }),
};
const audience = ['admin', 'tester (project lead)', 'developer (project lead)'];
const fieldAnswer = { description: 'The field', schema: fieldDtoSchema, headers: positionHeaders };
const refusals = {
  400: invalidAnswer,
  403: errorAnswer(`"${projectMessages.adminsAndLeads}"; auditors change nothing`),
  404: errorAnswer(`"${projectMessages.notFound}" (or one the caller cannot see), or "${fieldMessages.notFound}"`),
};

/** Option ids for what a request may add, derived from its idempotency key when it has one. */
const optionIds = (request: CommandRequest<unknown, unknown>, count: number) =>
  Array.from({ length: count }, (_, i) => request.newId(`FieldOption:${i}`));

const fieldOf = (state: ProjectState, fieldId: string) => {
  const field = state.fields.find((f) => f.id === fieldId);
  return field ? toFieldDto(field) : null;
};

export const addProjectField = defineCommand({
  method: 'post',
  path: '/:id/fields',
  summary: 'Add a custom field to a project (admins and its leads)',
  description:
    'Its `key`, made from the name (`Customer tier` → `customer_tier`), names its values on every bug (`fields.<key>`), in list filters (`field.<key>=value`) and sorts (`sort=field.<key>`).',
  tags,
  audience,
  params: projectParams,
  body: {
    schema: createFieldBody,
    fields: {
      name: 'Required; at most 50 characters; unique in the project',
      type: 'text, number, date, select, multi_select, user or url',
      options: 'select and multi_select: the choices, in order (at least one)',
      required: 'Every report must give it a value (default false)',
    },
  },
  stream: ({ params }) => streams.project(params.id),
  decider: projectDecider,
  command: (request) => ({
    type: 'AddProjectField',
    data: {
      fieldId: request.newId('AddProjectField'),
      name: request.body.name,
      type: request.body.type,
      options: request.body.options ?? [],
      required: request.body.required ?? false,
      optionIds: optionIds(request, request.body.options?.length ?? 0),
    },
  }),
  policy: { retryOnConflict: true },
  answer: (handled, request) => ({ status: 201, body: fieldOf(handled.state, request.newId('AddProjectField')) }),
  responses: { 201: fieldAnswer, ...refusals, 409: errorAnswer(`"${fieldMessages.alreadyExists}"`) },
});

export const changeProjectField = defineCommand({
  method: 'patch',
  path: '/:id/fields/:fieldId',
  summary: 'Rename a custom field, change its options or whether it is required (admins and its leads)',
  description:
    'Its key stays. `options` is the whole list after the change: a name it had keeps its option, `{ "name": "New", "from": "Old" }` renames one (its bugs follow), one left out is removed (bugs that hold it keep it, named, until changed).',
  tags,
  audience,
  params: fieldParams,
  body: {
    schema: updateFieldBody,
    fields: {
      name: 'At most 50 characters; unique in the project',
      options: 'The choices after the change, in order: names, or `{ name, from }` to rename one',
      required: 'true or false (bugs without a value keep none until edited)',
    },
  },
  stream: ({ params }) => streams.project(params.id),
  decider: projectDecider,
  command: (request) => ({
    type: 'ChangeProjectField',
    data: {
      fieldId: request.params.fieldId,
      name: request.body.name,
      required: request.body.required,
      options: request.body.options,
      optionIds: optionIds(request, request.body.options?.length ?? 0),
    },
  }),
  policy: { retryOnConflict: true },
  answer: (handled, { params }) => ({ status: 200, body: fieldOf(handled.state, params.fieldId) }),
  responses: { 200: fieldAnswer, ...refusals, 409: errorAnswer(`"${fieldMessages.alreadyExists}"`) },
});

export const removeProjectField = defineCommand({
  method: 'delete',
  path: '/:id/fields/:fieldId',
  summary: 'Remove a custom field (admins and its leads)',
  description:
    'Bugs stop showing it; their histories keep naming its values. Its key is not given again in the project.',
  tags,
  audience,
  params: fieldParams,
  stream: ({ params }) => streams.project(params.id),
  decider: projectDecider,
  command: ({ params }) => ({ type: 'RemoveProjectField', data: { fieldId: params.fieldId } }),
  policy: ({ params }) => ({ retryOnConflict: true, naturalKey: `field:${params.fieldId}` }),
  answer: () => ({ status: 200, body: { message: 'Field removed' } }),
  responses: {
    200: { description: 'Removed', schema: z.object({ message: z.string() }), headers: positionHeaders },
    ...refusals,
  },
});

export const fieldCommands = [addProjectField, changeProjectField, removeProjectField];
