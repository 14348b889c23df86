import { createFileRoute } from '@tanstack/react-router';
import { AppLayout } from '../components/app-layout';
import { FullScreenSpinner } from '../components/ui/spinner';
import { requireRole } from '../lib/guard';

export const Route = createFileRoute('/admin')({
  beforeLoad: ({ context }) => requireRole(context.queryClient, 'admin'),
  pendingComponent: FullScreenSpinner,
  component: AdminLayout,
});

function AdminLayout() {
  return <AppLayout area="admin" />;
}
