import { createFileRoute, Link, useNavigate } from '@tanstack/react-router';
import { ArrowRight } from 'lucide-react';
import { Greeting, RecentBugsCard, StatusStatCards } from '../../components/dashboard-parts';
import { dashboardQuery } from '../../lib/queries';
import { useDashboard } from '../../lib/use-dashboard';
import { IntegrityCard } from './-components/integrity-card';

/** The auditor reads the admin's dashboard (GET /api/bugs/admin-dashboard), without its forms. */
export const Route = createFileRoute('/auditor/dashboard')({
  loader: ({ context }) => {
    void context.queryClient.prefetchQuery(dashboardQuery('admin'));
  },
  component: AuditorDashboard,
});

function AuditorDashboard() {
  const navigate = useNavigate();
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
        <RecentBugsCard
          className="min-w-0 xl:col-span-2"
          title="Recent Activity"
          action={
            <Link
              to="/auditor/bugs"
              className="inline-flex items-center gap-1 text-sm font-semibold text-brand-700 hover:underline"
            >
              See All <ArrowRight className="size-4" />
            </Link>
          }
          bugs={data?.recentBugs}
          viewAs="auditor"
          isLoading={isPending}
          onRowClick={(id) => void navigate({ to: '/auditor/bugs/$bugId', params: { bugId: id } })}
        />
        <IntegrityCard />
      </div>
    </>
  );
}
