import { createFileRoute, Link, useNavigate } from '@tanstack/react-router';
import { Bug, Plus, RefreshCw } from 'lucide-react';
import { Greeting, RecentBugsCard, StatusDoughnutCard, StatusStatCards } from '../../components/dashboard-parts';
import { Button, buttonClass } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { EmptyState } from '../../components/ui/empty-state';
import { notify } from '../../lib/notify';
import { dashboardQuery } from '../../lib/queries';
import { useDashboard } from '../../lib/use-dashboard';

export const Route = createFileRoute('/tester/dashboard')({
  loader: ({ context }) => {
    void context.queryClient.prefetchQuery(dashboardQuery('tester'));
  },
  component: TesterDashboard,
});

function TesterDashboard() {
  const navigate = useNavigate();
  const {
    userName,
    dashboard: { data, isPending, error, refetch, isRefetching },
  } = useDashboard('tester');
  const stats = data?.stats ?? data?.statistics;
  const refresh = async () => {
    const result = await refetch();
    if (result.isError) notify.error('Failed to load dashboard data');
    else notify.success('Dashboard refreshed');
  };
  const hasBugs = (stats?.totalBugs ?? 0) > 0;
  return (
    <>
      <Greeting
        name={userName}
        title={`Welcome back, ${userName}!`}
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
      <StatusStatCards
        stats={stats}
        isLoading={isPending}
        labels={{ total: 'Total Bugs Reported', open: 'Open Bugs', closed: 'Closed Bugs' }}
      />
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
            <StatusDoughnutCard
              title="Your Reported Bugs Status"
              distribution={data?.charts.bugDistribution}
              isLoading={isPending}
            />
          </div>
          <RecentBugsCard
            className="xl:col-span-3"
            title="Your Recent Bug Reports"
            action={
              <Link to="/tester/my-bugs" className="text-sm font-semibold text-brand-700 hover:underline">
                See All
              </Link>
            }
            bugs={data?.recentBugs}
            viewAs="tester"
            isLoading={isPending}
            onRowClick={(id) => void navigate({ to: '/tester/bug/$bugId', params: { bugId: id } })}
          />
        </div>
      )}
    </>
  );
}
