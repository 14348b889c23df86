import { createFileRoute } from '@tanstack/react-router';
import { AppLayout } from '../components/app-layout';
import { FullScreenSpinner } from '../components/ui/spinner';
import { requireSession } from '../lib/guard';

/** Projects (api.md "Projects"): pages of every role, in the role's layout. */
export const Route = createFileRoute('/projects')({
  beforeLoad: ({ context }) => requireSession(context.queryClient),
  pendingComponent: FullScreenSpinner,
  component: ProjectsLayout,
});

function ProjectsLayout() {
  const { user } = Route.useRouteContext();
  return <AppLayout area={user.role} />;
}
