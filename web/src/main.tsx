import { QueryClient } from '@tanstack/react-query';
import { createRouter } from '@tanstack/react-router';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app';
import { ApiError, setUnauthorizedHandler } from './lib/api';
import { clearSession } from './lib/session';
import { startTheme } from './lib/theme';
import { routeTree } from './routeTree.gen';
import './styles.css';
// Toast styles as a stylesheet: sonner's own inline <style> is stripped for the CSP (vite.config.ts).
import 'sonner/dist/styles.css';

// Before the first render: the page paints in its theme at once (the CSP allows no inline script in index.html).
startTheme();

const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 30_000,
      refetchOnWindowFocus: false,
      // A refusal will not change on retry; only network trouble is worth another go.
      retry: (count, error) => count < 2 && error instanceof ApiError && (error.status <= 0 || error.status >= 500),
    },
  },
});

const router = createRouter({
  routeTree,
  context: { queryClient },
  defaultPreload: 'intent',
  defaultPreloadStaleTime: 0,
  defaultPendingMs: 150,
  defaultPendingMinMs: 300,
  scrollRestoration: true,
  // Every unknown path gets the root's 404, which wraps itself in the layout for a signed-in user.
  notFoundMode: 'root',
});

declare module '@tanstack/react-router' {
  interface Register {
    router: typeof router;
  }
}

setUnauthorizedHandler(() => {
  clearSession();
  queryClient.clear();
  if (router.state.location.pathname !== '/login') void router.navigate({ to: '/login' });
});

const root = document.getElementById('root');
if (root)
  createRoot(root).render(
    <StrictMode>
      <App router={router} queryClient={queryClient} />
    </StrictMode>,
  );
