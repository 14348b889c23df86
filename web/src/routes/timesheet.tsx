import { createFileRoute } from '@tanstack/react-router';
import { AppLayout } from '../components/app-layout';
import { FullScreenSpinner } from '../components/ui/spinner';
import { requireSession } from '../lib/guard';

/** Timesheets (issue 37): a page of every role that logs or reads time, in the role's layout. */
export const Route = createFileRoute('/timesheet')({
  beforeLoad: ({ context }) => requireSession(context.queryClient),
  pendingComponent: FullScreenSpinner,
  component: TimesheetLayout,
});

function TimesheetLayout() {
  const { user } = Route.useRouteContext();
  return <AppLayout area={user.role} />;
}
