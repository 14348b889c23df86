import { ForbiddenError, UnauthorizedError, userMessages, ValidationError } from '@bugtrail/domain';
import { type AuthEnv, readJson, requireAuth } from '@bugtrail/platform';
import { type Context, Hono } from 'hono';
import { z } from 'zod';
import type { WriteApiDeps } from '../deps.js';
import { authAnswer, loadUser } from './auth.routes.js';
import { requireFreshProof } from './fresh-proof.js';
import {
  attemptChallenge,
  beginSetup,
  completeChallenge,
  countAttempt,
  disable,
  enable,
  findMfa,
  forgiveAttempts,
  mfaMessages,
  otpauthUrl,
  useCode,
} from './mfa.js';
import { lazyMfaSecretBox } from './mfa-secret-box.js';
import { verifyPassword } from './passwords.js';

const text = z.string().max(200).optional().nullable();

const passwordText = z.string().max(10_000).optional().nullable();

export const mfaSetupBody = z.object({ currentPassword: passwordText });
export const mfaEnableBody = z.object({ code: text });
export const mfaDisableBody = z.object({ code: text, currentPassword: passwordText });
export const mfaVerifyBody = z.object({ mfaToken: text, code: text });

function requiredCode(code: string | null | undefined): string {
  const trimmed = code?.trim() ?? '';
  if (!trimmed) throw ValidationError.field('code', mfaMessages.codeRequired);
  return trimmed;
}

/** Answers that carry a secret are never cached (the browser's, a proxy's). */
function noStore(c: Context) {
  c.header('Cache-Control', 'no-store');
}

/**
 * /api/auth/mfa: optional TOTP per user (the rules are in mfa.ts). setup, enable and disable
 * act on the caller's own account; verify is the second half of /login and needs no bearer
 * token, only the mfaToken /login answered.
 */
export function createMfaRoutes(deps: WriteApiDeps) {
  const now = () => deps.now?.() ?? new Date();
  const secretBox = lazyMfaSecretBox(deps.pool, deps.config.mfaEncryptionKey);
  const app = new Hono<AuthEnv>();

  app.post('/setup', requireAuth(deps.tokens), async (c) => {
    const userId = c.var.actor.id;
    const body = await readJson(c, mfaSetupBody);
    // A stolen session alone must not switch MFA on with its holder's secret and lock the owner out.
    await requireFreshProof(c, deps, body.currentPassword, 'passwordless');
    const { rows } = await deps.pool.query<{ email: string }>('select email from auth.credentials where user_id = $1', [
      userId,
    ]);
    const email = rows[0]?.email;
    if (!email) throw new UnauthorizedError(userMessages.invalidCredentials);
    const secret = await beginSetup(deps.pool, userId, now(), await secretBox());
    noStore(c);
    return c.json({ secret, otpauthUrl: otpauthUrl(email, secret) }, 200);
  });

  app.post('/enable', requireAuth(deps.tokens), async (c) => {
    const body = await readJson(c, mfaEnableBody);
    const code = requiredCode(body.code);
    const recoveryCodes = await enable(deps.pool, c.var.actor.id, code, now(), await secretBox());
    if (!recoveryCodes) throw new ForbiddenError(mfaMessages.codeInvalid);
    noStore(c);
    return c.json({ recoveryCodes }, 200);
  });

  app.post('/disable', requireAuth(deps.tokens), async (c) => {
    const userId = c.var.actor.id;
    const body = await readJson(c, mfaDisableBody);
    if (!body.currentPassword) {
      throw ValidationError.field('currentPassword', userMessages.currentPasswordRequired);
    }
    const code = requiredCode(body.code);
    const mfa = await findMfa(deps.pool, userId, await secretBox());
    if (!mfa?.isEnabled) throw ValidationError.field('code', mfaMessages.notEnabled);
    const at = now();
    // A stolen session must not be enough: the password and a code, both within the guess budget.
    await countAttempt(deps.pool, userId, at);
    const { rows } = await deps.pool.query<{ password_hash: string }>(
      'select password_hash from auth.credentials where user_id = $1',
      [userId],
    );
    if (!rows[0] || !(await verifyPassword(rows[0].password_hash, body.currentPassword))) {
      throw new ForbiddenError(userMessages.currentPasswordIncorrect);
    }
    if (!(await useCode(deps.pool, userId, mfa.secret, code, at, { allowRecovery: true }))) {
      throw new ForbiddenError(mfaMessages.codeInvalid);
    }
    await disable(deps.pool, userId);
    return c.json({ message: 'Two-factor authentication disabled' }, 200);
  });

  app.post('/verify', async (c) => {
    const body = await readJson(c, mfaVerifyBody);
    const mfaToken = body.mfaToken?.trim() ?? '';
    if (!mfaToken) throw ValidationError.field('mfaToken', mfaMessages.mfaTokenRequired);
    const code = requiredCode(body.code);
    const at = now();
    const userId = await attemptChallenge(deps.pool, mfaToken, at);
    const mfa = await findMfa(deps.pool, userId, await secretBox());
    // Turned off since the password step: that login is stale, a new one needs no code.
    if (!mfa?.isEnabled) throw new UnauthorizedError(mfaMessages.challengeExpired);
    await countAttempt(deps.pool, userId, at);
    if (!(await useCode(deps.pool, userId, mfa.secret, code, at, { allowRecovery: true }))) {
      throw new UnauthorizedError(mfaMessages.codeInvalid);
    }
    await completeChallenge(deps.pool, mfaToken, at);
    await forgiveAttempts(deps.pool, userId);
    const user = await loadUser(deps, userId);
    // Deactivated between the password step and this one.
    if (user.deactivated) throw new ForbiddenError(userMessages.deactivated);
    noStore(c);
    return c.json(authAnswer(await deps.tokens.issue(user), user), 200);
  });

  return app;
}
