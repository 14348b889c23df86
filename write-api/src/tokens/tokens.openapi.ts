import { apiTokenDtoSchema, apiTokenLimits, apiTokenMessages, createApiTokenBody } from '@bugtrail/domain';
import { errorAnswer, idParam, invalidAnswer, type RouteSpec } from '@bugtrail/platform';
import { z } from 'zod';
import { listTokensQuery } from './tokens.routes.js';

/** /api/tokens (tokens.routes.ts), relative to its mount. */

const tags = ['tokens'];
const roles = ['admin', 'tester', 'developer', 'auditor'];

const createToken: RouteSpec = {
  method: 'post',
  path: '/',
  summary: 'Create a personal API token for scripts and CI',
  description:
    'The answer carries the secret (`btp_` and 43 more characters) once; only its hash is kept. Send it as ' +
    "`Authorization: Bearer btp_…`: it acts as its owner with the owner's role of the moment. A `read` token " +
    `is refused every method but GET and HEAD ("${apiTokenMessages.scopeRefused}"). No token may create tokens, ` +
    "change its owner's password, email, role or two-step sign-in, or manage webhooks. Expired, deleted, or its " +
    `owner deactivated: 401. At most ${apiTokenLimits.perUser} live tokens per person. Needs a fresh proof: ` +
    '`currentPassword`, unless the session signed in within the last 5 minutes.',
  tags,
  roles,
  body: {
    schema: createApiTokenBody,
    fields: {
      name: `Required; trimmed, 1 to ${apiTokenLimits.nameMax} characters`,
      scope: '`read` or `write`',
      expiresInDays: `${apiTokenLimits.expiresInDaysMin} to ${apiTokenLimits.expiresInDaysMax}; default ${apiTokenLimits.expiresInDaysDefault}`,
      currentPassword: "The caller's password; not needed when the session signed in within the last 5 minutes",
    },
  },
  responses: {
    201: {
      description: 'The token and its secret, shown this once (Cache-Control: no-store)',
      schema: z.object({ token: apiTokenDtoSchema, secret: z.string() }),
    },
    400: errorAnswer(
      'Invalid input, with `details`; or "Current password is required" (the session is older than 5 minutes)',
    ),
    403: errorAnswer(
      `"Current password is incorrect"; or "${apiTokenMessages.notWithToken}": an API token cannot mint tokens`,
    ),
    409: errorAnswer(`"${apiTokenMessages.limitReached}"`),
  },
};

const listTokens: RouteSpec = {
  method: 'get',
  path: '/',
  summary: "The caller's API tokens (never a secret); an admin's `?all=true`: everyone's",
  tags,
  roles,
  query: listTokensQuery,
  responses: {
    200: { description: 'Newest first', schema: z.object({ tokens: z.array(apiTokenDtoSchema) }) },
    400: invalidAnswer,
    403: errorAnswer(`"${apiTokenMessages.onlyAdminsListAll}" (auditors may, as they read what admins read)`),
  },
};

const deleteToken: RouteSpec = {
  method: 'delete',
  path: '/{id}',
  summary: 'Revoke an API token: its own owner, or an admin any',
  tags,
  roles,
  params: idParam,
  responses: {
    204: { description: 'Revoked: the token answers 401 from now on, on every replica' },
    404: errorAnswer(`"${apiTokenMessages.notFound}": no such token among those the caller may revoke`),
  },
};

export const tokenOperations: RouteSpec[] = [createToken, listTokens, deleteToken];
