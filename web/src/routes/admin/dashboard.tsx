import { createFileRoute, Link, useNavigate } from '@tanstack/react-router';
import { ArrowRight } from 'lucide-react';
import {
  Greeting,
  LevelBarCard,
  RecentBugsCard,
  StatusDoughnutCard,
  StatusStatCards,
} from '../../components/dashboard-parts';
import { SuggestionUsageCard } from '../../components/triage-suggestions/suggestion-usage-card';
import { dashboardQuery } from '../../lib/queries';
import { useDashboard } from '../../lib/use-dashboard';

export const Route = createFileRoute('/admin/dashboard')({
  loader: ({ context }) => {
    void context.queryClient.prefetchQuery(dashboardQuery('admin'));
  },
  component: AdminDashboard,
});

function AdminDashboard() {
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
      <div className="mt-6 grid grid-cols-1 gap-6 lg:grid-cols-2">
        <StatusDoughnutCard
          title="Bug Status Distribution"
          distribution={data?.charts.bugDistribution}
          isLoading={isPending}
        />
        <LevelBarCard title="Bug Severity Levels" levels={data?.charts.bugSeverityLevels} isLoading={isPending} />
      </div>
      {data?.suggestions && data.suggestions.reports > 0 ? (
        <SuggestionUsageCard className="mt-6" usage={data.suggestions} />
      ) : null}
      <RecentBugsCard
        className="mt-6"
        title="Recent Bugs"
        action={
          <Link
            to="/admin/bugs"
            className="inline-flex items-center gap-1 text-sm font-semibold text-brand-700 hover:underline"
          >
            See All <ArrowRight className="size-4" />
          </Link>
        }
        bugs={data?.recentBugs}
        viewAs="admin"
        isLoading={isPending}
        onRowClick={(id) => void navigate({ to: '/admin/bugs/$bugId', params: { bugId: id } })}
      />
    </>
  );
}
