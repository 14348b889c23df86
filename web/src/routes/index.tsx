import { createFileRoute, redirect } from '@tanstack/react-router';
import { clearSession, hasToken, isRole, isSessionRefused, profileQuery, roleHome } from '../lib/session';

/** "/" only decides where the user belongs. */
export const Route = createFileRoute('/')({
  beforeLoad: async ({ context }) => {
    if (!hasToken()) throw redirect({ to: '/landing' });
    let role: unknown;
    try {
      role = (await context.queryClient.ensureQueryData(profileQuery())).role;
    } catch (error) {
      if (isSessionRefused(error)) clearSession();
      throw redirect({ to: '/landing' });
    }
    throw redirect({ to: isRole(role) ? roleHome[role] : '/landing' });
  },
});
