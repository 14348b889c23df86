import type { QueryClient } from '@tanstack/react-query';
import { redirect } from '@tanstack/react-router';
import { clearSession, hasToken, isSessionRefused, profileQuery } from './session';
import type { Role, User } from './types';

/**
 * Role routes: no session → /login; a wrong role → / (which sends it home). Offline the
 * profile comes from the last answer seen (saved-answers.ts); with none, the way is /login
 * but the token stays, so once the server is back the app opens without a new login.
 */
export async function requireRole(queryClient: QueryClient, role: Role): Promise<{ user: User }> {
  const { user } = await requireSession(queryClient);
  if (user.role !== role) throw redirect({ to: '/' });
  return { user };
}

/** Pages of every role (projects, the profile): a session, whatever its role. */
export async function requireSession(queryClient: QueryClient): Promise<{ user: User }> {
  if (!hasToken()) throw redirect({ to: '/login' });
  let user: User;
  try {
    user = await queryClient.ensureQueryData(profileQuery());
  } catch (error) {
    if (isSessionRefused(error)) {
      clearSession();
      queryClient.clear();
    }
    throw redirect({ to: '/login' });
  }
  return { user };
}
