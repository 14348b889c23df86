import { createFileRoute, Link, redirect } from '@tanstack/react-router';
import { bugPath } from '../../components/nav';
import { FullScreenSpinner } from '../../components/ui/spinner';
import { ApiError, api } from '../../lib/api';
import { clearSession, hasToken, profileQuery } from '../../lib/session';
import type { Bug, User } from '../../lib/types';

/**
 * `/bugs/42` (issue 16) and `/bugs/WEB-7` (issue 35): the bug with that number or key, opened
 * in the caller's role's page. Someone who may not see it gets the same words as its page would say.
 */
export const Route = createFileRoute('/bugs/$number')({
  beforeLoad: async ({ context, params }) => {
    if (!hasToken()) throw redirect({ to: '/login' });
    let user: User;
    try {
      user = await context.queryClient.ensureQueryData(profileQuery());
    } catch {
      clearSession();
      context.queryClient.clear();
      throw redirect({ to: '/login' });
    }
    const isNumber = /^\d+$/.test(params.number);
    const name = isNumber ? `#${params.number}` : params.number.toUpperCase();
    let bug: Bug;
    try {
      bug = await api<Bug>(
        isNumber
          ? `/api/bugs/by-number/${encodeURIComponent(params.number)}`
          : `/api/bugs/by-key/${encodeURIComponent(params.number)}`,
      );
    } catch (error) {
      const status = error instanceof ApiError ? error.status : 0;
      return {
        problem:
          status === 403
            ? "You don't have permission to view this bug"
            : status === 404
              ? `There is no bug ${name}`
              : 'Failed to load the bug',
      };
    }
    throw redirect({ href: bugPath(user.role, bug._id), replace: true });
  },
  pendingComponent: FullScreenSpinner,
  component: NumberProblem,
});

function NumberProblem() {
  const { problem } = Route.useRouteContext() as { problem?: string };
  return (
    <main className="flex min-h-screen flex-col items-center justify-center gap-4 p-6 text-center">
      <h1 className="text-xl font-semibold text-slate-900">{problem ?? 'Bug not found'}</h1>
      <Link to="/" className="text-sm font-medium text-brand-700 hover:underline">
        Go home
      </Link>
    </main>
  );
}
