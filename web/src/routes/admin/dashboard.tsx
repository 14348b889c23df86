import { useQuery } from '@tanstack/react-query';
import { createFileRoute, Link, useNavigate } from '@tanstack/react-router';
import { ArrowRight, Bug, CircleCheck, CircleDot, Loader } from 'lucide-react';
import { BugTable } from '../../components/bug-table';
import { BAR_HEIGHT, BarChart, DOUGHNUT_HEIGHT, DoughnutChart } from '../../components/charts';
import { ChartCard, Greeting } from '../../components/dashboard-parts';
import { StatCard } from '../../components/stat-card';
import { Card, CardHeader } from '../../components/ui/card';
import { dashboardQuery } from '../../lib/queries';
import { profileQuery } from '../../lib/session';
import { useErrorToast } from '../../lib/use-error-toast';

export const Route = createFileRoute('/admin/dashboard')({
  loader: ({ context }) => {
    void context.queryClient.prefetchQuery(dashboardQuery('admin'));
  },
  component: AdminDashboard,
});

function AdminDashboard() {
  const navigate = useNavigate();
  const { data: user } = useQuery(profileQuery());
  const { data, isPending, error } = useQuery(dashboardQuery('admin'));
  useErrorToast(error, 'Failed to load dashboard data');
  const stats = data?.statistics;
  const distribution = data?.charts.bugDistribution;
  const severity = data?.charts.bugSeverityLevels;
  return (
    <>
      <Greeting name={user?.name ?? ''} />
      <div className="grid grid-cols-1 gap-4 sm:grid-cols-2 xl:grid-cols-4">
        <StatCard label="Total Bugs" value={stats?.totalBugs} icon={Bug} isLoading={isPending} />
        <StatCard label="Open Bugs" value={stats?.openBugs} icon={CircleDot} accent="violet" isLoading={isPending} />
        <StatCard
          label="In Progress Bugs"
          value={stats?.inProgressBugs}
          icon={Loader}
          accent="cyan"
          isLoading={isPending}
        />
        <StatCard
          label="Closed Bugs"
          value={stats?.closedBugs}
          icon={CircleCheck}
          accent="green"
          isLoading={isPending}
        />
      </div>
      <div className="mt-6 grid grid-cols-1 gap-6 lg:grid-cols-2">
        <ChartCard title="Bug Status Distribution" isLoading={isPending} height={DOUGHNUT_HEIGHT}>
          <DoughnutChart
            label="Bug Status Distribution"
            data={[
              { label: 'Open', value: distribution?.Open ?? 0 },
              { label: 'In Progress', value: distribution?.['In Progress'] ?? distribution?.InProgress ?? 0 },
              { label: 'Closed', value: distribution?.Closed ?? 0 },
            ]}
          />
        </ChartCard>
        <ChartCard title="Bug Severity Levels" isLoading={isPending} height={BAR_HEIGHT}>
          <BarChart
            label="Bug Severity Levels"
            data={[
              { label: 'High', value: severity?.High ?? 0 },
              { label: 'Medium', value: severity?.Medium ?? 0 },
              { label: 'Low', value: severity?.Low ?? 0 },
            ]}
          />
        </ChartCard>
      </div>
      <Card className="mt-6">
        <CardHeader
          title="Recent Bugs"
          action={
            <Link
              to="/admin/bugs"
              className="inline-flex items-center gap-1 text-sm font-semibold text-brand-700 hover:underline"
            >
              See All <ArrowRight className="size-4" />
            </Link>
          }
        />
        <BugTable
          bugs={data?.recentBugs ?? []}
          view="team"
          isLoading={isPending}
          onRowClick={(id) => void navigate({ to: '/admin/bugs/$bugId', params: { bugId: id } })}
        />
      </Card>
    </>
  );
}
