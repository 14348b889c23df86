import { type QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { type AnyRouter, RouterProvider } from '@tanstack/react-router';
import { Toaster } from 'sonner';
import { TOAST_MAX_VISIBLE } from './lib/notify';

export function App({ router, queryClient }: { router: AnyRouter; queryClient: QueryClient }) {
  return (
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
      <Toaster
        position="top-right"
        offset={{ top: 76, right: 16 }}
        mobileOffset={{ top: 72 }}
        richColors
        closeButton
        visibleToasts={TOAST_MAX_VISIBLE}
      />
    </QueryClientProvider>
  );
}
