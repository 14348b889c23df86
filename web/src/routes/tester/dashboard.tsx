import { useQuery } from '@tanstack/react-query';
import { createFileRoute, Link, useNavigate } from '@tanstack/react-router';
import { Bug, CircleCheck, CircleDot, Loader, Plus, RefreshCw } from 'lucide-react';
import { BugTable } from '../../components/bug-table';
import { DOUGHNUT_HEIGHT, DoughnutChart } from '../../components/charts';
import { ChartCard, Greeting } from '../../components/dashboard-parts';
import { StatCard } from '../../components/stat-card';
import { Button, buttonClass } from '../../components/ui/button';
import { Card, CardHeader } from '../../components/ui/card';
import { EmptyState } from '../../components/ui/empty-state';
import { notify } from '../../lib/notify';
import { dashboardQuery } from '../../lib/queries';
import { profileQuery } from '../../lib/session';
import { useErrorToast } from '../../lib/use-error-toast';

export const Route = createFileRoute('/tester/dashboard')({
  loader: ({ context }) => {
    void context.queryClient.prefetchQuery(dashboardQuery('tester'));
  },
  component: TesterDashboard,
});

function TesterDashboard() {
  const navigate = useNavigate();
  const { data: user } = useQuery(profileQuery());
  const { data, isPending, error, refetch, isRefetching } = useQuery(dashboardQuery('tester'));
  useErrorToast(error, 'Failed to load dashboard data');
  const stats = data?.stats ?? data?.statistics;
  const distribution = data?.charts.bugDistribution;
  const refresh = async () => {
    const result = await refetch();
    if (result.isError) notify.error('Failed to load dashboard data');
    else notify.success('Dashboard refreshed');
  };
  const hasBugs = (stats?.totalBugs ?? 0) > 0;
  return (
    <>
      <Greeting
        name={user?.name ?? ''}
        title={`Welcome back, ${user?.name ?? ''}!`}
        actions={
          <>
            <Button
              variant="secondary"
              onClick={refresh}
              isLoading={isRefetching}
              icon={<RefreshCw className="size-4" />}
            >
              Refresh Dashboard
            </Button>
            <Link
              to="/tester/report-bug"
              className={buttonClass('secondary', 'md', 'bg-white/10 text-white ring-white/30 hover:bg-white/20')}
            >
              <Plus className="size-4" /> Report a New Bug
            </Link>
          </>
        }
      />
      <div className="grid grid-cols-1 gap-4 sm:grid-cols-2 xl:grid-cols-4">
        <StatCard label="Total Bugs Reported" value={stats?.totalBugs} icon={Bug} isLoading={isPending} />
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
      {!isPending && !error && !hasBugs ? (
        <Card className="mt-6">
          <EmptyState icon={<Bug className="size-6" />} title="You haven't reported any bugs yet">
            <Link to="/tester/report-bug" className={buttonClass('primary')}>
              <Plus className="size-4" /> Report Your First Bug
            </Link>
          </EmptyState>
        </Card>
      ) : (
        <div className="mt-6 grid grid-cols-1 gap-6 xl:grid-cols-5">
          <div className="xl:col-span-2">
            <ChartCard title="Your Reported Bugs Status" isLoading={isPending} height={DOUGHNUT_HEIGHT}>
              <DoughnutChart
                label="Your Reported Bugs Status"
                data={[
                  { label: 'Open', value: distribution?.Open ?? 0 },
                  { label: 'In Progress', value: distribution?.['In Progress'] ?? distribution?.InProgress ?? 0 },
                  { label: 'Closed', value: distribution?.Closed ?? 0 },
                ]}
              />
            </ChartCard>
          </div>
          <Card className="xl:col-span-3">
            <CardHeader
              title="Your Recent Bug Reports"
              action={
                <Link to="/tester/my-bugs" className="text-sm font-semibold text-brand-700 hover:underline">
                  See All
                </Link>
              }
            />
            <BugTable
              bugs={data?.recentBugs ?? []}
              view="tester"
              isLoading={isPending}
              onRowClick={(id) => void navigate({ to: '/tester/bug/$bugId', params: { bugId: id } })}
            />
          </Card>
        </div>
      )}
    </>
  );
}
