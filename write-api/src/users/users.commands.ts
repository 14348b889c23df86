import {
  emailPreferences,
  ForbiddenError,
  NotFoundError,
  streams,
  type UserState,
  userDecider,
} from '@bugtrail/domain';
import { forbiddenAnswer, idParam, invalidAnswer, notFoundAnswer } from '@bugtrail/platform';
import { z } from 'zod';
import { defineCommand } from '../command.js';
import { positionHeaders } from '../commands.openapi.js';
import { profileMessages } from './users.routes.js';

/**
 * User commands declared once each (issue 34), mounted at /api/users after users.routes.ts, whose
 * `use('*', requireAuth)` runs before them too (the same check; the token is verified once per request).
 * The other commands on a user's stream stay in the routers: profile, role, deactivate, reactivate and
 * MFA reset append inside a transaction on the credentials table (the row logins decide by, the admins'
 * rows for the last-admin rule), and the reset link discards its token when the append fails and is
 * built from the request's origin; a declaration can neither wrap its append nor see the request.
 */

export const preferencesBody = z.object({ email: z.unknown().optional() });

type RegisteredUser = Extract<UserState, { status: 'registered' }>;

/** PUT /api/users/{id}/preferences: the caller's own (an admin: anyone's), as an event of their stream. */
export const setNotificationPreferences = defineCommand({
  method: 'put',
  path: '/:id/preferences',
  summary: 'How notifications are mailed: each at once, a daily digest, or never (the caller’s own; admins anyone’s)',
  tags: ['users'],
  // Any id passes here: who may change whose preferences is checked after the body (`command`),
  // where an id that names nobody is 404 for a caller who may not change it anyway.
  params: { schema: z.object({ id: z.string() }), notFound: profileMessages.notFound, openapi: idParam },
  body: { schema: preferencesBody, fields: { email: '"immediate", "daily" or "off"' } },
  stream: ({ params }) => streams.user(params.id),
  decider: userDecider,
  command: async ({ actor, params, body }, deps) => {
    if (actor.id !== params.id && actor.role !== 'admin') {
      // api.md: an id that does not exist is 404; an existing user the caller may not change, 403.
      if (!(await deps.accounts.exists(params.id))) throw new NotFoundError(profileMessages.notFound);
      throw new ForbiddenError(profileMessages.forbidden);
    }
    return {
      type: 'SetNotificationPreferences',
      // Anything but text is the decider's 400, as an unknown word is.
      data: { userId: params.id, email: typeof body.email === 'string' ? body.email : '' },
    };
  },
  policy: { retryOnConflict: true },
  answer: (handled) => ({
    status: 200,
    body: { preferences: { email: (handled.state as RegisteredUser).emailPreference } },
  }),
  responses: {
    200: {
      description: 'The preferences now',
      schema: z.object({ preferences: z.object({ email: z.enum(emailPreferences) }) }),
      headers: positionHeaders,
    },
    400: invalidAnswer,
    403: forbiddenAnswer,
    404: notFoundAnswer,
  },
});

export const userCommands = [setNotificationPreferences];
