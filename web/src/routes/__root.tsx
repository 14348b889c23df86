import { type QueryClient, useQuery } from '@tanstack/react-query';
import { createRootRouteWithContext, Link, Outlet } from '@tanstack/react-router';
import { lazy, Suspense } from 'react';
import { FullScreenSpinner } from '../components/ui/spinner';
import { DocumentTitle } from '../lib/document-title';
import { hasToken, profileQuery } from '../lib/session';

// Loaded only for a signed-in user's 404: the public pages keep the app's code out of their bundle.
const AppLayout = lazy(() => import('../components/app-layout').then((module) => ({ default: module.AppLayout })));

export const Route = createRootRouteWithContext<{ queryClient: QueryClient }>()({
  component: Root,
  notFoundComponent: NotFound,
});

function Root() {
  return (
    <>
      <DocumentTitle />
      <Outlet />
    </>
  );
}

/** Any unknown path (main.tsx sends them all here): inside the user's layout when signed in, a clean page otherwise. */
function NotFound() {
  const isSignedIn = hasToken();
  const { data: user, isPending } = useQuery({ ...profileQuery(), enabled: isSignedIn });
  if (isSignedIn && user) {
    return (
      <Suspense fallback={<FullScreenSpinner />}>
        <AppLayout area={user.role}>
          <NotFoundMessage />
        </AppLayout>
      </Suspense>
    );
  }
  if (isSignedIn && isPending) return <FullScreenSpinner />;
  return (
    <main className="flex min-h-screen items-center justify-center p-6">
      <NotFoundMessage />
    </main>
  );
}

function NotFoundMessage() {
  return (
    <div className="flex flex-col items-center gap-4 py-16 text-center">
      <p className="text-sm font-semibold text-brand-700">404</p>
      <h1 className="text-2xl font-semibold text-slate-900">Page not found</h1>
      <p className="max-w-sm text-sm text-slate-600">The address may be mistyped, or the page has moved.</p>
      <Link to="/" className="text-sm font-medium text-brand-700 hover:underline">
        Go home
      </Link>
    </div>
  );
}
