import { ForbiddenError, UnauthorizedError, userMessages, ValidationError } from '@bugtrail/domain';
import { type AuthEnv, sessionAuthenticatedAt } from '@bugtrail/platform';
import type { Context } from 'hono';
import type { WriteApiDeps } from '../deps.js';
import { verifyPassword } from './passwords.js';

/** How recent a sign-in stands in for the password (api.md "Second round of safety"). */
export const FRESH_SIGN_IN_MS = 5 * 60 * 1000;

/**
 * Who may count a recent sign-in instead of the password: `anyone` (creating an API token),
 * or only `passwordless` people, who sign in through single sign-on and know no password
 * (setting up MFA).
 */
export type RecentSignIn = 'anyone' | 'passwordless';

/**
 * A fresh proof that the caller is the account's owner, not someone holding a stolen
 * session: the current password, or (as `recentSignIn` allows) a sign-in within the last
 * 5 minutes. 400 "Current password is required" without one, 403 "Current password is
 * incorrect" for a wrong password.
 */
export async function requireFreshProof(
  c: Context<AuthEnv>,
  deps: WriteApiDeps,
  currentPassword: string | null | undefined,
  recentSignIn: RecentSignIn,
): Promise<void> {
  const userId = c.var.actor.id;
  const { rows } = await deps.pool.query<{ password_hash: string; password_known: boolean }>(
    'select password_hash, password_known from auth.credentials where user_id = $1',
    [userId],
  );
  const row = rows[0];
  if (!row) throw new UnauthorizedError(userMessages.invalidCredentials);
  if (currentPassword) {
    if (!(await verifyPassword(row.password_hash, currentPassword))) {
      throw new ForbiddenError(userMessages.currentPasswordIncorrect);
    }
    return;
  }
  if (recentSignIn === 'anyone' || !row.password_known) {
    const signedInAt = await sessionAuthenticatedAt(c, deps.tokens);
    const now = (deps.now?.() ?? new Date()).getTime();
    if (signedInAt !== null && now - signedInAt <= FRESH_SIGN_IN_MS) return;
  }
  throw ValidationError.field('currentPassword', userMessages.currentPasswordRequired);
}
