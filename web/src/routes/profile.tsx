import { createFileRoute, redirect } from '@tanstack/react-router';
import { AppLayout } from '../components/app-layout';
import { FullScreenSpinner } from '../components/ui/spinner';
import { ApiError } from '../lib/api';
import { clearSession, hasToken, profileQuery } from '../lib/session';

/**
 * The signed-in user's own pages, whatever the role: the role's layout (sidebar, header)
 * around them. Only a 401 ends the session; a network failure keeps the token.
 */
export const Route = createFileRoute('/profile')({
  beforeLoad: async ({ context }) => {
    if (!hasToken()) throw redirect({ to: '/login' });
    try {
      return { user: await context.queryClient.ensureQueryData(profileQuery()) };
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) {
        clearSession();
        context.queryClient.clear();
      }
      throw redirect({ to: '/login' });
    }
  },
  pendingComponent: FullScreenSpinner,
  component: ProfileLayout,
});

function ProfileLayout() {
  const { user } = Route.useRouteContext();
  return <AppLayout area={user.role} />;
}
