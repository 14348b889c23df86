import { createFileRoute } from '@tanstack/react-router';
import { AppLayout } from '../components/app-layout';
import { FullScreenSpinner } from '../components/ui/spinner';
import { requireRole } from '../lib/guard';

export const Route = createFileRoute('/tester')({
  beforeLoad: ({ context }) => requireRole(context.queryClient, 'tester'),
  pendingComponent: FullScreenSpinner,
  component: TesterLayout,
});

function TesterLayout() {
  return <AppLayout area="tester" />;
}
