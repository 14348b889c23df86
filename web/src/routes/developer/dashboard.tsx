import { useQuery } from '@tanstack/react-query';
import { createFileRoute, Link, useNavigate } from '@tanstack/react-router';
import { Bug, CircleCheck, CircleDot, Loader } from 'lucide-react';
import { BugTable } from '../../components/bug-table';
import { BAR_HEIGHT, BarChart, DOUGHNUT_HEIGHT, DoughnutChart } from '../../components/charts';
import { ChartCard, Greeting } from '../../components/dashboard-parts';
import { StatCard } from '../../components/stat-card';
import { Card, CardHeader } from '../../components/ui/card';
import { dashboardQuery } from '../../lib/queries';
import { profileQuery } from '../../lib/session';
import { useErrorToast } from '../../lib/use-error-toast';

export const Route = createFileRoute('/developer/dashboard')({
  loader: ({ context }) => {
    void context.queryClient.prefetchQuery(dashboardQuery('developer'));
  },
  component: DeveloperDashboard,
});

function DeveloperDashboard() {
  const navigate = useNavigate();
  const { data: user } = useQuery(profileQuery());
  const { data, isPending, error } = useQuery(dashboardQuery('developer'));
  useErrorToast(error, 'Failed to load dashboard data');
  const stats = data?.statistics;
  const distribution = data?.charts.bugDistribution;
  const priority = data?.charts.bugPriorityLevels;
  return (
    <>
      <Greeting name={user?.name ?? ''} />
      <div className="grid grid-cols-1 gap-4 sm:grid-cols-2 xl:grid-cols-4">
        <StatCard label="Total Assigned Bugs" value={stats?.totalBugs} icon={Bug} isLoading={isPending} />
        <StatCard label="Pending Bugs" value={stats?.openBugs} icon={CircleDot} accent="violet" isLoading={isPending} />
        <StatCard
          label="In Progress Bugs"
          value={stats?.inProgressBugs}
          icon={Loader}
          accent="cyan"
          isLoading={isPending}
        />
        <StatCard
          label="Resolved Bugs"
          value={stats?.closedBugs}
          icon={CircleCheck}
          accent="green"
          isLoading={isPending}
        />
      </div>
      <div className="mt-6 grid grid-cols-1 gap-6 lg:grid-cols-2">
        <ChartCard title="Assigned Bugs Status" isLoading={isPending} height={DOUGHNUT_HEIGHT}>
          <DoughnutChart
            label="Assigned Bugs Status"
            data={[
              { label: 'Pending', value: distribution?.Open ?? 0 },
              { label: 'In Progress', value: distribution?.['In Progress'] ?? distribution?.InProgress ?? 0 },
              { label: 'Resolved', value: distribution?.Closed ?? 0 },
            ]}
          />
        </ChartCard>
        <ChartCard title="Bugs by Priority" isLoading={isPending} height={BAR_HEIGHT}>
          <BarChart
            label="Bugs by Priority"
            data={[
              { label: 'Critical', value: priority?.High ?? 0 },
              { label: 'Major', value: priority?.Medium ?? 0 },
              { label: 'Minor', value: priority?.Low ?? 0 },
            ]}
          />
        </ChartCard>
      </div>
      <Card className="mt-6">
        <CardHeader
          title="Your Assigned Bugs"
          action={
            <Link to="/developer/assigned-bugs" className="text-sm font-semibold text-brand-700 hover:underline">
              See All
            </Link>
          }
        />
        <BugTable
          bugs={data?.recentBugs ?? []}
          view="team"
          isLoading={isPending}
          onRowClick={(id) => void navigate({ to: '/developer/assigned-bugs/$bugId', params: { bugId: id } })}
        />
      </Card>
    </>
  );
}
