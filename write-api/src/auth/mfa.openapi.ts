import { roleSchema, userMessages } from '@bugtrail/domain';
import { errorAnswer, type RouteSpec, userDtoSchema } from '@bugtrail/platform';
import { z } from 'zod';
import { mfaLimits, mfaMessages } from './mfa.js';
import { mfaDisableBody, mfaEnableBody, mfaSetupBody, mfaVerifyBody } from './mfa.routes.js';

/** The MFA commands (mfa.routes.ts), relative to their mount at /api/auth/mfa. */

const tags = ['auth'];
const authAnswer = userDtoSchema.extend({ token: z.string(), role: roleSchema, user: userDtoSchema });

/** What /api/auth/login answers instead of a session for a user with MFA on. */
export const mfaChallengeAnswerSchema = z.object({
  mfaRequired: z.literal(true),
  mfaToken: z
    .string()
    .describe(
      `Send it to POST /api/auth/mfa/verify within ${mfaLimits.challengeSeconds / 60} minutes; ` +
        `good for ${mfaLimits.attemptsPerChallenge} codes and one sign-in. It is not a bearer token.`,
    ),
});

const tooManyWrongCodes = errorAnswer(
  `${mfaLimits.wrongCodesPerUser} wrong codes (or passwords, on disable) per user per ` +
    `${mfaLimits.wrongCodeWindowSeconds / 60} minutes: Retry-After says when to try again`,
);
const codeField = 'A 6-digit code from the authenticator app (spaces are ignored)';
const codeOrRecovery = `${codeField}, or an unused recovery code (xxxxx-xxxxx)`;

export const mfaOperations: RouteSpec[] = [
  {
    method: 'post',
    path: '/setup',
    summary: 'Start setting up TOTP two-factor authentication',
    description:
      'A new base32 secret (RFC 6238: HMAC-SHA1, 6 digits, 30 s) and its key URI ' +
      '`otpauth://totp/Bugtrail:<email>?secret=<secret>&issuer=Bugtrail` for an authenticator app. ' +
      'Pending until enabled; calling again replaces a pending secret. Needs the current password (people ' +
      'who sign in only through single sign-on: a sign-in within the last 5 minutes instead); while MFA is on, ' +
      'disable it first.',
    tags,
    body: {
      schema: mfaSetupBody,
      fields: {
        currentPassword: "The caller's password (single sign-on only: optional within 5 minutes of signing in)",
      },
    },
    responses: {
      200: {
        description: 'The pending secret (answered with Cache-Control: no-store)',
        schema: z.object({ secret: z.string(), otpauthUrl: z.string() }),
      },
      400: errorAnswer(userMessages.currentPasswordRequired),
      403: errorAnswer(userMessages.currentPasswordIncorrect),
      409: errorAnswer(`${mfaMessages.alreadyEnabled}: disable it first`),
    },
  },
  {
    method: 'post',
    path: '/enable',
    summary: 'Turn two-factor authentication on with a code of the pending secret',
    tags,
    body: { schema: mfaEnableBody, fields: { code: codeField } },
    responses: {
      200: {
        description: `On. ${mfaLimits.recoveryCodes} single-use recovery codes, shown this once (stored only as hashes)`,
        schema: z.object({ recoveryCodes: z.array(z.string()) }),
      },
      400: errorAnswer(`${mfaMessages.codeRequired}; ${mfaMessages.notSetUp} (no setup)`),
      403: errorAnswer(mfaMessages.codeInvalid),
      409: errorAnswer(`${mfaMessages.alreadyEnabled}; or ${mfaMessages.setupChanged}`),
      429: tooManyWrongCodes,
    },
  },
  {
    method: 'post',
    path: '/disable',
    summary: 'Turn two-factor authentication off',
    tags,
    body: {
      schema: mfaDisableBody,
      fields: { code: `Required: ${codeOrRecovery}`, currentPassword: 'Required' },
    },
    responses: {
      200: { description: 'Off; recovery codes deleted', schema: z.object({ message: z.string() }) },
      400: errorAnswer('Current password is required; Authentication code is required; or MFA is not enabled'),
      403: errorAnswer(`Current password is incorrect; or ${mfaMessages.codeInvalid}`),
      429: tooManyWrongCodes,
    },
  },
  {
    method: 'post',
    path: '/verify',
    summary: 'Second step of logging in: the mfaToken from /login and a code',
    description:
      'POST /api/auth/login answers `{ mfaRequired: true, mfaToken }` (200) for a user with MFA on, ' +
      'instead of the session; this call exchanges it, with a TOTP or unused recovery code, for the ' +
      'normal login answer.',
    tags,
    auth: false,
    body: {
      schema: mfaVerifyBody,
      fields: { mfaToken: mfaChallengeAnswerSchema.shape.mfaToken, code: `Required: ${codeOrRecovery}` },
    },
    responses: {
      200: { description: 'Logged in (as /login answers)', schema: authAnswer },
      400: errorAnswer(`${mfaMessages.mfaTokenRequired}; ${mfaMessages.codeRequired}`),
      401: errorAnswer(
        `${mfaMessages.codeInvalid}; or ${mfaMessages.challengeExpired} (unknown, expired, used, or out of attempts)`,
      ),
      403: errorAnswer(`"${userMessages.deactivated}": deactivated since the password step`),
      429: tooManyWrongCodes,
    },
  },
];
