import { inviteMessages, roleSchema, signupMessages, signupRoleSchema, userMessages } from '@bugtrail/domain';
import {
  errorAnswer,
  forbiddenAnswer,
  idParam,
  invalidAnswer,
  type RouteSpec,
  userDtoSchema,
} from '@bugtrail/platform';
import { z } from 'zod';
import { idempotencyHeader, positionHeaders } from '../commands.openapi.js';
import { forgotBody, resetBody } from '../users/people.routes.js';
import { loginBody, mintCodeBody, registerBody } from './auth.routes.js';
import { mfaChallengeAnswerSchema } from './mfa.openapi.js';

/** The auth commands (auth.routes.ts), relative to their mount at /api/auth. */

const authAnswer = userDtoSchema.extend({ token: z.string(), role: roleSchema, user: userDtoSchema });
const tags = ['auth'];

export const authOperations: RouteSpec[] = [
  {
    method: 'post',
    path: '/register',
    summary: 'Register (role defaults to tester; admin needs an invite code)',
    tags,
    auth: false,
    headers: idempotencyHeader,
    body: {
      schema: registerBody,
      fields: {
        name: 'Required',
        email: 'Required; a valid email address, unique',
        password: '8 to 128 characters',
        role: signupRoleSchema.optional().describe('Defaults to tester; signup never offers auditor'),
        adminInviteToken: 'Required for the admin role: the configured code or a minted 6-digit one',
        inviteCode:
          'When sign-up is by invitation (GET /api/auth/signup-policy): required for a tester or developer, a code an admin minted for that role',
        profileImageURL: 'Empty, or an image this server stored (as returned by upload-image)',
        profileImageUrl: 'The same as profileImageURL (either spelling)',
      },
    },
    responses: {
      201: { description: 'Registered', schema: authAnswer, headers: positionHeaders },
      400: invalidAnswer,
      403: errorAnswer(`"Invalid admin invite token", or "${signupMessages.codeInvalid}"`),
      429: errorAnswer('Too many wrong invite codes'),
    },
  },
  {
    method: 'post',
    path: '/login',
    summary: 'Log in',
    tags,
    auth: false,
    body: { schema: loginBody, fields: { email: 'Required', password: 'Required' } },
    responses: {
      200: {
        description:
          'Logged in; or, for a user with two-factor authentication on, `{ mfaRequired, mfaToken }` to finish with POST /api/auth/mfa/verify',
        schema: z.union([authAnswer, mfaChallengeAnswerSchema]),
      },
      400: invalidAnswer,
      401: errorAnswer('Invalid email or password'),
      403: errorAnswer(`"${userMessages.deactivated}" (the right password of a deactivated account)`),
      429: errorAnswer('Too many failed logins from this address (or for this account from it)'),
    },
  },
  {
    method: 'post',
    path: '/logout',
    summary: "Revoke the caller's tokens issued so far",
    tags,
    responses: { 200: { description: 'Logged out', schema: z.object({ message: z.string() }) } },
  },
  {
    method: 'post',
    path: '/invite-codes',
    summary: 'Mint a single-use invite code: an admin one (24 h), or an invitation for a tester or developer (7 days)',
    tags,
    roles: ['admin'],
    body: {
      schema: mintCodeBody,
      fields: { role: 'admin (the default, no body), tester or developer' },
    },
    responses: {
      201: {
        description:
          'Minted (the code is shown once); `_id` names it in the list and for revoking. An invitation also has its `role` and the signup `url` to pass on',
        schema: z.object({
          _id: z.string(),
          code: z.string(),
          expiresAt: z.string(),
          singleUse: z.boolean(),
          role: z.enum(['tester', 'developer']).optional(),
          url: z.string().optional(),
        }),
        headers: positionHeaders,
      },
      400: invalidAnswer,
      403: forbiddenAnswer,
    },
  },
  {
    method: 'delete',
    path: '/invite-codes/{id}',
    summary: 'Revoke an invite code: it opens no signup from now on',
    tags,
    roles: ['admin'],
    params: idParam,
    headers: idempotencyHeader,
    responses: {
      204: { description: 'Revoked (again: still 204)' },
      403: forbiddenAnswer,
      404: errorAnswer(`"${inviteMessages.notFound}"`),
    },
  },
  {
    method: 'post',
    path: '/forgot',
    summary: 'Ask for a password-reset link by mail',
    description:
      'Always 202, whether or not the account exists. Without SMTP the message says to ask an admin for a reset link.',
    tags,
    auth: false,
    body: { schema: forgotBody, fields: { email: 'Required; a valid email address' } },
    responses: {
      202: {
        description: `"${userMessages.resetRequested}", or "${userMessages.resetNotMailed}"`,
        schema: z.object({ message: z.string() }),
      },
      400: invalidAnswer,
    },
  },
  {
    method: 'post',
    path: '/reset',
    summary: 'Set a new password with a one-time reset link',
    description:
      'The link works once, for 24 hours; every session token of the user issued so far and every API token they own stop working (401), and their live streams close.',
    tags,
    auth: false,
    body: {
      schema: resetBody,
      fields: { token: "The reset link's `token` parameter", password: '8 to 128 characters' },
    },
    responses: {
      200: { description: `"${userMessages.passwordReset}"`, schema: z.object({ message: z.string() }) },
      400: errorAnswer(`"${userMessages.resetLinkInvalid}", or a password message`),
      403: errorAnswer(`"${userMessages.deactivated}"`),
    },
  },
];
