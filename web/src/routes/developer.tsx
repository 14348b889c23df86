import { createFileRoute } from '@tanstack/react-router';
import { AppLayout } from '../components/app-layout';
import { FullScreenSpinner } from '../components/ui/spinner';
import { requireRole } from '../lib/guard';

export const Route = createFileRoute('/developer')({
  beforeLoad: ({ context }) => requireRole(context.queryClient, 'developer'),
  pendingComponent: FullScreenSpinner,
  component: DeveloperLayout,
});

function DeveloperLayout() {
  return <AppLayout area="developer" />;
}
