import { roleSchema, userMessages } from '@bugtrail/domain';
import {
  errorAnswer,
  forbiddenAnswer,
  idParam,
  invalidAnswer,
  notFoundAnswer,
  type RouteSpec,
  userDtoSchema,
} from '@bugtrail/platform';
import { z } from 'zod';
import { idempotencyHeader, positionHeaders } from '../commands.openapi.js';
import { profileBody, roleBody } from './users.routes.js';

/**
 * PUT and PATCH /api/users/{id}, PUT /api/users/{id}/role (users.routes.ts) and the admin's people routes
 * (people.routes.ts), relative to their mount at /api/users. The declared user commands (users.commands.ts)
 * document themselves.
 */

const updateProfile = (method: 'put' | 'patch'): RouteSpec => ({
  method,
  path: '/{id}',
  summary: 'Update a profile (self, or admin); the role is not writable',
  description: 'PUT and PATCH are the same command.',
  tags: ['users'],
  params: idParam,
  headers: idempotencyHeader,
  body: {
    schema: profileBody,
    fields: {
      email: 'A valid email address, not used by another account',
      password:
        "Blank = unchanged; else 8 to 128 characters. Ends the user's other sessions (the changing one gets a fresh `token`), revokes every API token they own, and closes their live streams",
      role: 'Not writable: 400 unless it is the current role',
      profileImageURL: 'Empty, or an image this server stored (as returned by upload-image)',
      profileImageUrl: 'The same as profileImageURL (either spelling)',
    },
  },
  responses: {
    200: {
      description: 'Updated (a new token when the caller changed their own password)',
      schema: userDtoSchema.extend({ message: z.string(), user: userDtoSchema, token: z.string().optional() }),
      headers: positionHeaders,
    },
    400: invalidAnswer,
    403: forbiddenAnswer,
    404: notFoundAnswer,
  },
});

const changeRole: RouteSpec = {
  method: 'put',
  path: '/{id}/role',
  summary: "Change a user's role (admin only; an admin may change their own)",
  description:
    "Revokes the user's tokens issued so far (they carry the old role); an admin who changed their own role " +
    'gets a fresh token. The same role again changes nothing.',
  tags: ['users'],
  roles: ['admin'],
  params: idParam,
  headers: idempotencyHeader,
  body: {
    schema: roleBody,
    fields: { role: roleSchema.describe(`Any case. 400 "${userMessages.lastAdmin}" when it would leave no admin`) },
  },
  responses: {
    200: {
      description: 'Changed (a new token when the caller changed their own role)',
      schema: z.object({ user: userDtoSchema, token: z.string().optional() }),
      headers: positionHeaders,
    },
    400: invalidAnswer,
    403: forbiddenAnswer,
    404: notFoundAnswer,
  },
};

const userAnswer = (description: string) => ({
  description,
  schema: z.object({ user: userDtoSchema }),
  headers: positionHeaders,
});

const deactivate: RouteSpec = {
  method: 'post',
  path: '/{id}/deactivate',
  summary: 'Deactivate a user (admin): their tokens stop at once, their live streams close',
  description:
    'They stay in lists and histories with `deactivated: true`; login answers 403 ' +
    `"${userMessages.deactivated}". Again: 200, nothing changes.`,
  tags: ['users'],
  roles: ['admin'],
  params: idParam,
  headers: idempotencyHeader,
  responses: {
    200: userAnswer('Deactivated'),
    403: forbiddenAnswer,
    404: notFoundAnswer,
    409: errorAnswer(`"${userMessages.lastAdmin}": the last active admin`),
  },
};

const reactivate: RouteSpec = {
  method: 'post',
  path: '/{id}/reactivate',
  summary: 'Reactivate a user (admin): they may log in again',
  tags: ['users'],
  roles: ['admin'],
  params: idParam,
  headers: idempotencyHeader,
  responses: { 200: userAnswer('Active again'), 403: forbiddenAnswer, 404: notFoundAnswer },
};

const resetLink: RouteSpec = {
  method: 'post',
  path: '/{id}/reset-link',
  summary: 'Make a one-time password-reset link for a user (admin; 24 h)',
  description: 'An absolute URL from PUBLIC_URL, else the request origin; the token is its `token` query parameter.',
  tags: ['users'],
  roles: ['admin'],
  params: idParam,
  headers: idempotencyHeader,
  responses: {
    200: {
      description: 'The link (shown once)',
      schema: z.object({ url: z.string(), expiresAt: z.string() }),
      headers: positionHeaders,
    },
    403: forbiddenAnswer,
    404: notFoundAnswer,
    409: errorAnswer(`"${userMessages.deactivated}": reactivate them first`),
  },
};

const resetMfa: RouteSpec = {
  method: 'delete',
  path: '/{id}/mfa',
  summary: "Reset a user's two-factor sign-in (admin): their TOTP secret and recovery codes are gone",
  description:
    "For an owner locked out of their authenticator: an `MfaReset` event on the user's stream (audited, in its " +
    'history); the user is told by notification (`mfa_reset`) and, with SMTP, by mail. Their password alone signs ' +
    'in afterwards. A user without MFA: 200, nothing recorded.',
  tags: ['users'],
  roles: ['admin'],
  params: idParam,
  headers: idempotencyHeader,
  responses: {
    200: {
      description: 'Off',
      schema: z.object({ message: z.string(), mfaEnabled: z.literal(false) }),
    },
    403: forbiddenAnswer,
    404: notFoundAnswer,
  },
};

export const userOperations: RouteSpec[] = [
  updateProfile('put'),
  updateProfile('patch'),
  changeRole,
  deactivate,
  reactivate,
  resetLink,
  resetMfa,
];
