import { roleSchema, signupRoleSchema } from '@bugtrail/domain';
import { errorAnswer, forbiddenAnswer, invalidAnswer, type RouteSpec, userDtoSchema } from '@bugtrail/platform';
import { z } from 'zod';
import { idempotencyHeader, positionHeaders } from '../commands.openapi.js';
import { loginBody, registerBody } from './auth.routes.js';
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
        profileImageURL: 'Empty, or an image this server stored (as returned by upload-image)',
        profileImageUrl: 'The same as profileImageURL (either spelling)',
      },
    },
    responses: {
      201: { description: 'Registered', schema: authAnswer, headers: positionHeaders },
      400: invalidAnswer,
      403: errorAnswer('Invalid admin invite token'),
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
    summary: 'Mint a single-use admin invite code (24 h)',
    tags,
    roles: ['admin'],
    responses: {
      201: {
        description: 'Minted (the code is shown once)',
        schema: z.object({ code: z.string(), expiresAt: z.string(), singleUse: z.boolean() }),
      },
      403: forbiddenAnswer,
    },
  },
];
