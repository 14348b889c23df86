import type { QueryClient } from '@tanstack/react-query';
import { redirect } from '@tanstack/react-router';
import { clearSession, hasToken, profileQuery } from './session';
import type { Role, User } from './types';

/** Role routes: no session → /login; a wrong role → / (which sends it home). */
export async function requireRole(queryClient: QueryClient, role: Role): Promise<{ user: User }> {
  if (!hasToken()) throw redirect({ to: '/login' });
  let user: User;
  try {
    user = await queryClient.ensureQueryData(profileQuery());
  } catch {
    clearSession();
    queryClient.clear();
    throw redirect({ to: '/login' });
  }
  if (user.role !== role) throw redirect({ to: '/' });
  return { user };
}
