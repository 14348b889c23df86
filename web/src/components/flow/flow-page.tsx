import { useQuery } from '@tanstack/react-query';
import { RefreshCw } from 'lucide-react';
import { useMemo } from 'react';
import { messageOf } from '../../lib/api';
import { projectsQuery } from '../../lib/projects';
import { useErrorToast } from '../../lib/use-error-toast';
import { usePeople } from '../bug-activity/bug-activity';
import { PageHeader } from '../page-header';
import { Button } from '../ui/button';
import { Card } from '../ui/card';
import { CumulativeFlowCard } from './cumulative-flow-chart';
import { CycleTimeScatterCard } from './cycle-time-scatter';
import { CycleTimeTable } from './cycle-time-table';
import { FlowControls } from './flow-controls';
import { cumulativeFlowQuery, cycleTimesQuery, flowMetricsQuery } from './flow-queries';
import { DEFAULT_GROUP, type FlowSearch, isRangeReversed } from './flow-search';
import type { FlowViewer } from './flow-status';
import { FlowSummary } from './flow-summary';
import { SlaComplianceCard } from './sla-compliance';
import { TimeInStateCard } from './time-in-state-chart';
import { TimeInStatusCard } from './time-in-status-chart';
import { WeeklyCard } from './weekly-chart';

/**
 * The Flow page (admins and auditors, read-only for both): how bugs move from Pending to
 * Resolved over a range, as of a moment. Everything it shows comes from GET /api/metrics,
 * /api/metrics/cycle-times and /api/metrics/flow; each chart downloads its data as CSV.
 */
export function FlowPage({
  viewAs,
  search,
  onSearchChange,
}: {
  viewAs: FlowViewer;
  search: FlowSearch;
  onSearchChange: (next: FlowSearch) => void;
}) {
  const metrics = useQuery(flowMetricsQuery(search));
  const cycleTimes = useQuery(cycleTimesQuery(search));
  const flow = useQuery(cumulativeFlowQuery(search));
  const users = usePeople();
  const projects = useQuery(projectsQuery());
  // Projects are named like people (by id): `KEY · Name`, for the project grouping.
  const people = useMemo(() => {
    const named = new Map(users);
    for (const p of projects.data?.projects ?? []) named.set(p._id, { _id: p._id, name: `${p.key} · ${p.name}` });
    return named;
  }, [users, projects.data]);
  const failed = [metrics, cycleTimes, flow].find((query) => query.isError);
  useErrorToast(failed?.error, 'Failed to load the flow metrics', { preferServer: true });
  const group = search.groupBy ?? DEFAULT_GROUP;
  const isReversed = isRangeReversed(search);
  const keyOrder = (metrics.data?.groups ?? []).map((g) => g.key);

  return (
    <>
      <PageHeader
        title="Flow"
        subtitle={`How bugs move from Pending to Resolved: cycle times, what is in each status, and what came in and went out.${viewAs === 'auditor' ? ' Read-only.' : ''}`}
      />
      <FlowControls search={search} onChange={onSearchChange} />
      {isReversed ? null : failed && !metrics.data ? (
        <Card className="flex flex-wrap items-center gap-3 p-5 text-sm text-slate-600">
          <p>{messageOf(failed.error, 'The flow metrics could not be loaded.')}</p>
          <Button
            variant="secondary"
            size="sm"
            icon={<RefreshCw className="size-4" />}
            onClick={() => {
              void metrics.refetch();
              void cycleTimes.refetch();
              void flow.refetch();
            }}
          >
            Try again
          </Button>
        </Card>
      ) : (
        <div className="space-y-6">
          <FlowSummary data={metrics.data} search={search} isLoading={metrics.isPending} viewAs={viewAs} />
          <CycleTimeTable
            data={metrics.data}
            fallbackGroup={group}
            people={people}
            isLoading={metrics.isPending}
            isUpdating={metrics.isPlaceholderData}
            viewAs={viewAs}
          />
          <CumulativeFlowCard
            data={flow.data}
            isLoading={flow.isPending}
            isUpdating={flow.isPlaceholderData}
            viewAs={viewAs}
          />
          <CycleTimeScatterCard
            data={cycleTimes.data}
            percentiles={metrics.data?.cycleTime}
            group={cycleTimes.data?.groupBy ?? group}
            keyOrder={keyOrder}
            people={people}
            isLoading={cycleTimes.isPending}
            isUpdating={cycleTimes.isPlaceholderData}
          />
          <div className="grid grid-cols-1 gap-6 lg:grid-cols-2">
            <WeeklyCard
              data={metrics.data}
              isLoading={metrics.isPending}
              isUpdating={metrics.isPlaceholderData}
              viewAs={viewAs}
            />
            <TimeInStatusCard
              data={metrics.data}
              people={people}
              isLoading={metrics.isPending}
              isUpdating={metrics.isPlaceholderData}
              viewAs={viewAs}
            />
          </div>
          <SlaComplianceCard search={search} canManage={viewAs === 'admin'} />
          {search.project && metrics.data?.timeInState ? (
            <TimeInStateCard
              data={metrics.data}
              project={search.project}
              isLoading={metrics.isPending}
              isUpdating={metrics.isPlaceholderData}
              viewAs={viewAs}
            />
          ) : null}
        </div>
      )}
    </>
  );
}
