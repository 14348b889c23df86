import { roleSchema, ssoMessages } from '@bugtrail/domain';
import { errorAnswer, type RouteSpec, userDtoSchema } from '@bugtrail/platform';
import { z } from 'zod';
import { mfaChallengeAnswerSchema } from './mfa.openapi.js';
import { oidcLimits } from './oidc.js';
import { oidcFinishBody } from './oidc.routes.js';

/** Single sign-on (oidc.routes.ts, ADR 018), relative to its mount at /api/auth/oidc. */

const tags = ['auth'];
const authAnswer = userDtoSchema.extend({ token: z.string(), role: roleSchema, user: userDtoSchema });
const refusalCodes = Object.keys(ssoMessages).join(', ');

export const oidcOperations: RouteSpec[] = [
  {
    method: 'get',
    path: '/',
    summary: 'Whether single sign-on is set up, and the provider name for the login button',
    tags,
    auth: false,
    responses: {
      200: {
        description: 'Set up (`OIDC_ISSUER`, `OIDC_CLIENT_ID`, `OIDC_CLIENT_SECRET`) or not',
        schema: z.object({ enabled: z.boolean(), name: z.string().optional() }),
      },
    },
  },
  {
    method: 'get',
    path: '/start',
    summary: 'Start a single sign-on: redirect to the OpenID provider',
    description:
      'Authorization code flow with PKCE (S256), state and nonce; scope `openid email profile`. ' +
      `The state rides in an HttpOnly cookie for /api/auth/oidc; the flow works once, for ${oidcLimits.flowSeconds / 60} minutes.`,
    tags,
    auth: false,
    responses: {
      302: { description: "To the provider's authorization endpoint" },
      303: { description: `The provider is unreachable: to /login?sso_error=failed (browsers)` },
      400: errorAnswer(ssoMessages.failed),
      404: errorAnswer(ssoMessages.notConfigured),
    },
  },
  {
    method: 'get',
    path: '/callback',
    summary: "The provider's redirect back: sign the person in",
    description:
      "Checks the state against this browser's cookie, then (openid-client) the code with the PKCE verifier, " +
      "the ID token's signature, issuer, audience, expiry and nonce. The email must be verified by the provider; " +
      'it matches an account case-insensitively, else a tester account is made. Success: 303 to `/sso#code=<one-time code>` ' +
      `(trade it at POST /api/auth/oidc/finish within ${oidcLimits.handoffSeconds / 60} minutes). ` +
      `Refusal: 303 to \`/login?sso_error=<code>\` (${refusalCodes}) for a browser, else 400/403 with the text.`,
    tags,
    auth: false,
    query: z.object({ code: z.string().optional(), state: z.string().optional(), error: z.string().optional() }),
    responses: {
      303: { description: 'Into the app (`/sso#code=…`), or back to the login page with `sso_error`' },
      400: errorAnswer(`${ssoMessages.state}; ${ssoMessages.unverified}; ${ssoMessages.expired}; …`),
      403: errorAnswer(ssoMessages.deactivated),
      404: errorAnswer(ssoMessages.notConfigured),
    },
  },
  {
    method: 'post',
    path: '/finish',
    summary: "Trade the callback's one-time code for a session",
    description: 'Answers as POST /api/auth/login does: a session, or the MFA challenge when the person has MFA on.',
    tags,
    auth: false,
    body: { schema: oidcFinishBody, fields: { code: 'The `code` of the `/sso#code=…` fragment' } },
    responses: {
      200: {
        description: 'Signed in (Cache-Control: no-store), or the MFA challenge',
        schema: z.union([authAnswer, mfaChallengeAnswerSchema]),
      },
      400: errorAnswer('No code'),
      401: errorAnswer(ssoMessages.expired),
      403: errorAnswer(ssoMessages.deactivated),
      404: errorAnswer(ssoMessages.notConfigured),
    },
  },
];
