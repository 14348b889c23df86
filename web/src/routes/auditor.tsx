import { createFileRoute } from '@tanstack/react-router';
import { AppLayout } from '../components/app-layout';
import { FullScreenSpinner } from '../components/ui/spinner';
import { requireRole } from '../lib/guard';

/** The auditor's pages: everything an admin reads, nothing that changes it (api.md "The auditor role"). */
export const Route = createFileRoute('/auditor')({
  beforeLoad: ({ context }) => requireRole(context.queryClient, 'auditor'),
  pendingComponent: FullScreenSpinner,
  component: AuditorLayout,
});

function AuditorLayout() {
  return <AppLayout area="auditor" />;
}
