import { bugStatuses } from '@bugtrail/domain/vocabulary';
import { Bug, CircleCheck, CircleDot, Loader } from 'lucide-react';
import type { ReactNode } from 'react';
import { formatToday, greeting } from '../lib/format';
import type { BugStatus, Bug as BugType, Dashboard, LevelCounts, Role } from '../lib/types';
import { BugTable } from './bug-table';
import { BAR_HEIGHT, BarChart, DOUGHNUT_HEIGHT, DoughnutChart } from './charts';
import { StatCard } from './stat-card';
import { Card, CardHeader } from './ui/card';
import { Skeleton } from './ui/skeleton';

export function Greeting({ name, actions, title }: { name: string; actions?: ReactNode; title?: string }) {
  const now = new Date();
  return (
    <div className="mb-6 flex flex-col gap-4 rounded-2xl bg-gradient-to-br from-brand-600 to-brand-800 p-6 text-white shadow-sm sm:flex-row sm:items-center sm:justify-between">
      <div>
        <h1 className="text-2xl font-bold tracking-tight">{title ?? `${greeting(now)}, ${name}`}</h1>
        <p className="mt-1 text-sm text-brand-100">{formatToday(now)}</p>
      </div>
      {actions ? <div className="flex flex-wrap gap-2">{actions}</div> : null}
    </div>
  );
}

export function ChartCard({
  title,
  isLoading,
  height,
  children,
}: {
  title: string;
  isLoading?: boolean;
  height: number;
  children: ReactNode;
}) {
  return (
    <Card>
      <CardHeader title={title} />
      <div className="p-5">
        {isLoading ? (
          <div style={{ height }}>
            <Skeleton className="h-full w-full" />
          </div>
        ) : (
          children
        )}
      </div>
    </Card>
  );
}

/**
 * The row of four status counts every dashboard opens with. The counts mean the same on
 * every dashboard; each role names the total, open and closed ones in its own words.
 */
export function StatusStatCards({
  stats,
  isLoading,
  labels,
}: {
  stats: Dashboard['statistics'] | undefined;
  isLoading: boolean;
  labels: { total: string; open: string; closed: string };
}) {
  return (
    <div className="grid grid-cols-1 gap-4 sm:grid-cols-2 xl:grid-cols-4">
      <StatCard label={labels.total} value={stats?.totalBugs} icon={Bug} isLoading={isLoading} />
      <StatCard label={labels.open} value={stats?.openBugs} icon={CircleDot} accent="violet" isLoading={isLoading} />
      <StatCard
        label="In Progress Bugs"
        value={stats?.inProgressBugs}
        icon={Loader}
        accent="cyan"
        isLoading={isLoading}
      />
      <StatCard
        label={labels.closed}
        value={stats?.closedBugs}
        icon={CircleCheck}
        accent="green"
        isLoading={isLoading}
      />
    </div>
  );
}

/** The stored words, for charts the spec labels Open, In Progress, Closed on every dashboard. */
const storedStatusNames = Object.fromEntries(bugStatuses.map((status) => [status, status])) as Record<
  BugStatus,
  string
>;

/** The bugs by status as a doughnut, under the status names the dashboard's screen uses. */
export function StatusDoughnutCard({
  title,
  distribution,
  isLoading,
  labels = storedStatusNames,
}: {
  title: string;
  distribution: Dashboard['charts']['bugDistribution'] | undefined;
  isLoading: boolean;
  labels?: Readonly<Record<BugStatus, string>>;
}) {
  return (
    <ChartCard title={title} isLoading={isLoading} height={DOUGHNUT_HEIGHT}>
      <DoughnutChart
        label={title}
        data={[
          { label: labels.Open, value: distribution?.Open ?? 0 },
          { label: labels['In Progress'], value: distribution?.['In Progress'] ?? distribution?.InProgress ?? 0 },
          { label: labels.Closed, value: distribution?.Closed ?? 0 },
        ]}
      />
    </ChartCard>
  );
}

/** High / Medium / Low counts as bars, under the names the role uses for those levels (by default, as counted). */
export function LevelBarCard({
  title,
  levels,
  isLoading,
  labels = { High: 'High', Medium: 'Medium', Low: 'Low' },
}: {
  title: string;
  levels: LevelCounts | undefined;
  isLoading: boolean;
  labels?: Readonly<Record<keyof LevelCounts, string>>;
}) {
  return (
    <ChartCard title={title} isLoading={isLoading} height={BAR_HEIGHT}>
      <BarChart
        label={title}
        data={[
          { label: labels.High, value: levels?.High ?? 0 },
          { label: labels.Medium, value: levels?.Medium ?? 0 },
          { label: labels.Low, value: levels?.Low ?? 0 },
        ]}
      />
    </ChartCard>
  );
}

/** A dashboard's latest bugs as a table, with the role's "See All" link in the header. */
export function RecentBugsCard({
  title,
  action,
  className,
  bugs,
  viewAs,
  isLoading,
  onRowClick,
}: {
  title: string;
  action: ReactNode;
  className?: string;
  bugs: BugType[] | undefined;
  viewAs: Role;
  isLoading: boolean;
  onRowClick: (id: string) => void;
}) {
  return (
    <Card className={className}>
      <CardHeader title={title} action={action} />
      <BugTable bugs={bugs ?? []} viewAs={viewAs} isLoading={isLoading} onRowClick={onRowClick} />
    </Card>
  );
}
