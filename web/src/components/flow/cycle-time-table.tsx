import type { UserRef } from '../../lib/types';
import { Card, CardHeader } from '../ui/card';
import { cx } from '../ui/cx';
import { SkeletonRows } from '../ui/skeleton';
import { CsvButton } from './chart-frame';
import { csvFileName } from './csv';
import { groupCsvCells, groupCsvHeader, groupKeyLabel, groupLabels } from './flow-groups';
import { type FlowViewer, statusNames } from './flow-status';
import type { FlowGroup, FlowMetrics, Percentiles } from './flow-types';
import { exactSeconds, formatDuration } from './format-duration';

const percentileKeys = ['p50', 'p85', 'p95'] as const satisfies readonly (keyof Percentiles)[];

/** Each group's bugs and cycle-time percentiles, exactly as GET /api/metrics?groupBy= answers them. */
export function CycleTimeTable({
  data,
  fallbackGroup,
  people,
  isLoading,
  isUpdating,
  viewAs,
}: {
  data: FlowMetrics | undefined;
  fallbackGroup: FlowGroup;
  people: ReadonlyMap<string, UserRef>;
  isLoading: boolean;
  isUpdating: boolean;
  viewAs: FlowViewer;
}) {
  // The answer's own group, so the rows and the heading never disagree while the next loads.
  const group = data?.groupBy ?? fallbackGroup;
  const groups = data?.groups ?? [];
  const names = statusNames(viewAs);
  const resolved = names.Closed;
  const title = `Cycle time by ${groupLabels[group].toLowerCase()}`;
  const table = data
    ? {
        header: [...groupCsvHeader(group), 'bugs', 'cycle_count', 'p50_seconds', 'p85_seconds', 'p95_seconds'],
        rows: groups.map((g) => [
          ...groupCsvCells(group, g.key, people),
          g.count,
          g.cycleTime.count,
          g.cycleTime.p50,
          g.cycleTime.p85,
          g.cycleTime.p95,
        ]),
      }
    : null;
  return (
    <Card className="min-w-0" role="region" aria-label={title}>
      <CardHeader
        title={title}
        subtitle={`Bugs reported in the range, and the cycle times (first ${names.Open} to last ${resolved}) of those ${resolved.toLowerCase()} in it.`}
        action={<CsvButton label={title} fileName={csvFileName(`cycle-time-by-${group}`, data?.asOf)} table={table} />}
      />
      {isLoading ? (
        <SkeletonRows rows={3} />
      ) : groups.length === 0 ? (
        <p className="px-5 py-10 text-center text-sm text-slate-500">No bugs in this range</p>
      ) : (
        <div
          className={cx('overflow-x-auto transition-opacity', isUpdating && 'opacity-60')}
          aria-busy={isUpdating || undefined}
        >
          <table className="w-full text-left text-sm">
            <thead className="bg-slate-50 text-xs font-semibold tracking-wide text-slate-500 uppercase">
              <tr>
                <th scope="col" className="px-3 py-2.5 sm:px-5">
                  {groupLabels[group]}
                </th>
                <th scope="col" className="hidden px-3 py-2.5 text-right sm:table-cell">
                  Bugs
                </th>
                <th scope="col" className="hidden px-3 py-2.5 text-right sm:table-cell">
                  {resolved}
                </th>
                {percentileKeys.map((key) => (
                  <th key={key} scope="col" className="px-2 py-2.5 text-right last:pr-3 sm:px-3 sm:last:pr-5">
                    {key}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {groups.map((g) => (
                <tr key={g.key ?? '∅'} className="text-slate-700">
                  <th scope="row" className="px-3 py-2.5 font-medium break-words text-slate-900 sm:px-5">
                    {groupKeyLabel(group, g.key, people)}
                    {/* On a phone the two counts ride under the name, leaving room for the percentiles. */}
                    <span className="block text-xs font-normal text-slate-500 sm:hidden">
                      {g.count} {g.count === 1 ? 'bug' : 'bugs'} · {g.cycleTime.count} {resolved.toLowerCase()}
                    </span>
                  </th>
                  <td className="hidden px-3 py-2.5 text-right tabular-nums sm:table-cell">{g.count}</td>
                  <td className="hidden px-3 py-2.5 text-right tabular-nums sm:table-cell">{g.cycleTime.count}</td>
                  {percentileKeys.map((key) => (
                    <td
                      key={key}
                      data-percentile={key}
                      title={exactSeconds(g.cycleTime[key])}
                      className="px-2 py-2.5 text-right whitespace-nowrap tabular-nums last:pr-3 sm:px-3 sm:last:pr-5"
                    >
                      {formatDuration(g.cycleTime[key])}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </Card>
  );
}
