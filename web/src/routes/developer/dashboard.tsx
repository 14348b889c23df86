import { developerPriorityChartLabels, statusDisplayNames } from '@bugtrail/domain/vocabulary';
import { createFileRoute, Link, useNavigate } from '@tanstack/react-router';
import {
  Greeting,
  LevelBarCard,
  RecentBugsCard,
  StatusDoughnutCard,
  StatusStatCards,
} from '../../components/dashboard-parts';
import { dashboardQuery } from '../../lib/queries';
import { useDashboard } from '../../lib/use-dashboard';

export const Route = createFileRoute('/developer/dashboard')({
  loader: ({ context }) => {
    void context.queryClient.prefetchQuery(dashboardQuery('developer'));
  },
  component: DeveloperDashboard,
});

/** Developer screens say Pending and Resolved (spec section 4). */
const statusNames = statusDisplayNames.developer;

function DeveloperDashboard() {
  const navigate = useNavigate();
  const {
    userName,
    dashboard: { data, isPending },
  } = useDashboard('developer');
  return (
    <>
      <Greeting name={userName} />
      <StatusStatCards
        stats={data?.statistics}
        isLoading={isPending}
        labels={{
          total: 'Total Assigned Bugs',
          open: `${statusNames.Open} Bugs`,
          closed: `${statusNames.Closed} Bugs`,
        }}
      />
      <div className="mt-6 grid grid-cols-1 gap-6 lg:grid-cols-2">
        <StatusDoughnutCard
          title="Assigned Bugs Status"
          distribution={data?.charts.bugDistribution}
          isLoading={isPending}
          labels={statusNames}
        />
        <LevelBarCard
          title="Bugs by Priority"
          levels={data?.charts.bugPriorityLevels}
          isLoading={isPending}
          labels={developerPriorityChartLabels}
        />
      </div>
      <RecentBugsCard
        className="mt-6"
        title="Your Assigned Bugs"
        action={
          <Link to="/developer/assigned-bugs" className="text-sm font-semibold text-brand-700 hover:underline">
            See All
          </Link>
        }
        bugs={data?.recentBugs}
        viewAs="developer"
        isLoading={isPending}
        onRowClick={(id) => void navigate({ to: '/developer/assigned-bugs/$bugId', params: { bugId: id } })}
      />
    </>
  );
}
