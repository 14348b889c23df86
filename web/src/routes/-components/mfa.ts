import type { AuthAnswer } from '../../lib/types';

/** What /api/auth/login answers for a user with two-factor authentication on. */
export type MfaChallenge = { mfaRequired: true; mfaToken: string };
export type LoginAnswer = AuthAnswer | MfaChallenge;

export const isMfaChallenge = (answer: LoginAnswer): answer is MfaChallenge =>
  'mfaRequired' in answer && answer.mfaRequired === true;

/** The server's texts the screens react to (write-api/src/auth/mfa.ts). */
export const mfaServerMessages = {
  codeInvalid: 'Invalid authentication code',
  alreadyEnabled: 'Two-factor authentication is already enabled',
  notEnabled: 'Two-factor authentication is not enabled',
} as const;

/**
 * Whether this session's user has MFA on, as last seen: the login knows (a code was asked
 * or not), enable and disable change it. No read answer carries it, so the security page
 * starts from this hint and corrects itself from the server's 409/400 when it is stale.
 * Lives beside the token, so logout and a 401 clear it with everything else.
 */
const MFA_HINT_KEY = 'mfaEnabled';

export function rememberMfa(isEnabled: boolean) {
  try {
    localStorage.setItem(MFA_HINT_KEY, isEnabled ? 'true' : 'false');
  } catch {
    // storage unavailable: the page falls back to asking the server
  }
}

export function recalledMfa(): boolean {
  try {
    return localStorage.getItem(MFA_HINT_KEY) === 'true';
  } catch {
    return false;
  }
}
