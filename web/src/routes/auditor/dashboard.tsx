import { createFileRoute } from '@tanstack/react-router';
import { ActivityFeedCard } from '../../components/bug-activity/activity-feed';
import { Greeting, StatusStatCards } from '../../components/dashboard-parts';
import { dashboardQuery } from '../../lib/queries';
import { useDashboard } from '../../lib/use-dashboard';
import { IntegrityCard } from './-components/integrity-card';

/**
 * The auditor's home: the admin dashboard's counts (GET /api/bugs/admin-dashboard), every
 * change across all bugs (GET /api/audit/activity) and the store's verify status.
 */
export const Route = createFileRoute('/auditor/dashboard')({
  loader: ({ context }) => {
    void context.queryClient.prefetchQuery(dashboardQuery('admin'));
  },
  component: AuditorDashboard,
});

function AuditorDashboard() {
  const {
    userName,
    dashboard: { data, isPending },
  } = useDashboard('admin');
  return (
    <>
      <Greeting name={userName} />
      <StatusStatCards
        stats={data?.statistics}
        isLoading={isPending}
        labels={{ total: 'Total Bugs', open: 'Open Bugs', closed: 'Closed Bugs' }}
      />
      <div className="mt-6 grid grid-cols-1 items-start gap-6 xl:grid-cols-3">
        <ActivityFeedCard viewAs="auditor" className="xl:col-span-2" />
        <IntegrityCard />
      </div>
    </>
  );
}
