import {
  savedViewDtoSchema,
  savedViewsDecider,
  saveViewBody,
  streams,
  toSavedViewDto,
  viewLimits,
  viewMessages,
} from '@bugtrail/domain';
import { errorAnswer, idParam, invalidAnswer } from '@bugtrail/platform';
import { z } from 'zod';
import { defineCommand } from '../command.js';
import { positionHeaders } from '../commands.openapi.js';

/**
 * Saved views (api.md "Saved views"): `POST /api/views`, `DELETE /api/views/{id}`. Each
 * user's views are one stream (`views-{userId}`), so a caller only ever reaches their
 * own: another user's view id is simply not there (404). Both commands re-decide on a
 * concurrent write to that stream (two saves of one name at once: one 201, one 409).
 * Auditors are refused at the door (ADR 012) and by the decider.
 */
const tags = ['views'];
/** Every role but the auditor, who changes nothing (ADR 012). */
const roles = ['admin', 'tester', 'developer'] as const;
const auditorsRefused = errorAnswer('Auditors change nothing');

export const saveView = defineCommand({
  method: 'post',
  path: '/',
  summary: 'Save a named bug list for the caller',
  description:
    'A saved view is personal: only its owner lists or deletes it. Names are unique per user, ignoring case ' +
    `and surrounding spaces; a user keeps at most ${viewLimits.perUser} views.`,
  tags,
  roles,
  body: {
    schema: saveViewBody,
    fields: {
      name: `Required; trimmed, 1 to ${viewLimits.nameMax} characters`,
      path:
        'The app route of the list, e.g. `/admin/bugs`, `/tester/all-bugs`, `/developer/assigned-bugs`: starts with ' +
        `"/", URL path characters only, no "//", no scheme, no query or fragment; at most ${viewLimits.pathMax} characters`,
      query:
        `The list's URL query string, e.g. \`status=Open&q=login\`; with or without its leading "?" (stored without); ` +
        `may be empty, null or left out; at most ${viewLimits.queryMax} characters, no "#" or control characters`,
    },
  },
  stream: ({ actor }) => streams.savedViews(actor.id),
  decider: savedViewsDecider,
  command: ({ actor, body, newId }) => ({
    type: 'SaveView',
    data: {
      userId: actor.id,
      // A retried save (same Idempotency-Key) lands on the same view.
      viewId: newId('SaveView'),
      name: body.name,
      path: body.path,
      query: body.query ?? '',
    },
  }),
  policy: { retryOnConflict: true },
  answer: (handled, _request, { data }) => {
    const view = handled.state.views.find((v) => v.id === data.viewId);
    if (!view) throw new Error(`saved view ${data.viewId} missing from its stream`);
    return { status: 201, body: toSavedViewDto(view) };
  },
  responses: {
    201: { description: 'The saved view', schema: savedViewDtoSchema, headers: positionHeaders },
    400: invalidAnswer,
    403: auditorsRefused,
    409: errorAnswer(
      `"${viewMessages.duplicateName}", or "${viewMessages.limitReached}"; or changed meanwhile, or this ` +
        'Idempotency-Key is still in flight',
    ),
  },
});

export const deleteView = defineCommand({
  method: 'delete',
  path: '/:id',
  summary: 'Delete one of the caller’s saved views',
  tags,
  roles,
  // An id that cannot name a view is one that does not exist.
  params: {
    schema: z.object({ id: z.string().trim().min(1).max(100) }),
    notFound: viewMessages.notFound,
    openapi: idParam,
  },
  stream: ({ actor }) => streams.savedViews(actor.id),
  decider: savedViewsDecider,
  command: ({ actor, params }) => ({ type: 'DeleteView', data: { userId: actor.id, viewId: params.id } }),
  // Deleting one view twice at once appends one ViewDeleted (ADR 009's natural key).
  policy: ({ params }) => ({ retryOnConflict: true, naturalKey: params.id }),
  answer: (_handled, { params }) => ({ status: 200, body: { message: viewMessages.deleted, _id: params.id } }),
  responses: {
    200: {
      description: 'Deleted',
      schema: z.object({ message: z.string(), _id: z.string() }),
      headers: positionHeaders,
    },
    403: auditorsRefused,
    404: errorAnswer(`"${viewMessages.notFound}": no such view among the caller's own (another user's view too)`),
  },
});

export const viewCommands = [saveView, deleteView];
