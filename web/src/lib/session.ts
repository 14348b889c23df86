import { roles } from '@bugtrail/domain/vocabulary';
import { queryOptions } from '@tanstack/react-query';
import { ApiError, api, getToken } from './api';
import { queryKeys } from './query-keys';
import { THEME_KEY } from './theme';
import type { Role, User } from './types';

export const roleHome: Record<
  Role,
  '/admin/dashboard' | '/tester/dashboard' | '/developer/dashboard' | '/auditor/dashboard'
> = {
  admin: '/admin/dashboard',
  tester: '/tester/dashboard',
  developer: '/developer/dashboard',
  auditor: '/auditor/dashboard',
};

export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (roles as readonly string[]).includes(value);
}

export const profileQuery = () =>
  queryOptions({
    queryKey: queryKeys.profile.self,
    queryFn: async () => (await api<{ user: User }>('/api/auth/profile')).user,
    staleTime: 5 * 60_000,
    retry: false,
  });

/**
 * Whether the server mails at all (SMTP_URL): GET /api/auth/mail.
 * Without mail, no page offers mail choices. Only the profile page asks.
 */
export const mailConfiguredQuery = () =>
  queryOptions({
    queryKey: queryKeys.site.mailConfigured,
    queryFn: async () => (await api<{ configured?: boolean }>('/api/auth/mail')).configured === true,
    staleTime: 5 * 60_000,
    retry: false,
  });

/**
 * Logout and 401 share this: storage and caches emptied, nothing of the old user left
 * (the offline queue lives in localStorage and goes with it; so do the saved answers).
 * The theme stays: it belongs to the device, not to the user.
 */
export function clearSession() {
  try {
    const theme = localStorage.getItem(THEME_KEY);
    localStorage.clear();
    if (theme !== null) localStorage.setItem(THEME_KEY, theme);
  } catch {
    // storage unavailable (private mode): nothing to clear
  }
  void import('./saved-answers').then(({ clearSavedAnswers }) => clearSavedAnswers());
}

/**
 * Whether a failed profile fetch ends the session: only a 401 does (api.md "Web
 * conventions" narrows the spec here). No answer at all (offline, the server down) or a
 * server error keeps the token, so the app opens from the last data seen and needs no new
 * login once the server is back.
 */
export const isSessionRefused = (error: unknown) => error instanceof ApiError && error.status === 401;

export const hasToken = () => getToken() !== null;

/** Who may sign up: anyone, or only people an admin invited (issue 40). */
export type SignupMode = 'open' | 'invitation';

/** GET /api/auth/signup-policy: public, as the signup page asks before anyone has an account. */
export const signupPolicyQuery = () =>
  queryOptions({
    queryKey: queryKeys.site.signupPolicy,
    queryFn: async () => (await api<{ mode: SignupMode }>('/api/auth/signup-policy')).mode,
  });
