import { AxisBottom, AxisLeft } from '@visx/axis';
import { Group } from '@visx/group';
import { scaleBand, scaleLinear } from '@visx/scale';
import { Bar } from '@visx/shape';
import type { UserRef } from '../../lib/types';
import {
  AXIS_COLOR,
  ChartLegend,
  EmptyChart,
  FlowCard,
  GRID_COLOR,
  tickCount,
  tickLabel,
  useWidth,
} from './chart-frame';
import { csvFileName } from './csv';
import { groupCsvCells, groupCsvHeader, groupKeyLabel, groupLabels } from './flow-groups';
import { type FlowViewer, flowStatuses, statusColors, statusColumn, statusNames } from './flow-status';
import type { FlowGroup, FlowMetrics } from './flow-types';
import { durationUnitFor, formatDuration } from './format-duration';

type Row = { key: string | null; label: string; count: number } & Record<(typeof flowStatuses)[number], number>;

const ROW = 34;
const margin = { top: 4, right: 16, bottom: 44, left: 0 };

export function TimeInStatusCard({
  data,
  people,
  isLoading,
  isUpdating,
  viewAs,
}: {
  data: FlowMetrics | undefined;
  people: ReadonlyMap<string, UserRef>;
  isLoading: boolean;
  isUpdating: boolean;
  viewAs: FlowViewer;
}) {
  const group: FlowGroup = data?.groupBy ?? 'severity';
  const names = statusNames(viewAs);
  const rows: Row[] = (data?.groups ?? [])
    .filter((g) => g.count > 0)
    .map((g) => ({ key: g.key, label: groupKeyLabel(group, g.key, people), count: g.count, ...g.timeInStatus }));
  const table = data
    ? {
        header: [
          ...groupCsvHeader(group),
          'bugs',
          ...flowStatuses.map((s) => `${statusColumn(s, viewAs)}_mean_seconds`),
        ],
        rows: rows.map((r) => [...groupCsvCells(group, r.key, people), r.count, ...flowStatuses.map((s) => r[s])]),
      }
    : null;
  const height = Math.max(150, rows.length * ROW + margin.top + margin.bottom);
  return (
    <FlowCard
      title={`Time in status by ${groupLabels[group].toLowerCase()}`}
      subtitle="Mean time a bug reported in the range spent in each status."
      csv={{ fileName: csvFileName(`time-in-status-by-${group}`, data?.asOf), table }}
      isLoading={isLoading}
      isUpdating={isUpdating}
      height={220}
    >
      {rows.length > 0 ? (
        <>
          <StatusBars rows={rows} names={names} group={group} height={height} />
          <ChartLegend
            className="mt-3 justify-center"
            items={flowStatuses.map((s) => ({ label: names[s], color: statusColors[s] }))}
          />
        </>
      ) : (
        <EmptyChart text="No bugs reported in this range" />
      )}
    </FlowCard>
  );
}

function StatusBars({
  rows,
  names,
  group,
  height,
}: {
  rows: Row[];
  names: Readonly<Record<(typeof flowStatuses)[number], string>>;
  group: FlowGroup;
  height: number;
}) {
  const { ref, width } = useWidth<HTMLDivElement>();
  // Room for the longest label, but never more than a third of a phone's width.
  const longest = Math.max(...rows.map((r) => r.label.length));
  const left = Math.round(Math.min(width < 480 ? 96 : 140, Math.max(48, longest * 6.6 + 12)));
  const fits = Math.max(4, Math.floor((left - 12) / 6.6));
  const innerWidth = Math.max(0, width - left - margin.right);
  const innerHeight = height - margin.top - margin.bottom;
  const totals = rows.map((r) => flowStatuses.reduce((sum, s) => sum + r[s], 0));
  const unit = durationUnitFor(Math.max(...totals));
  // Rows by position: two groups may share a label (an unknown user's short id).
  const y = scaleBand<string>({ domain: rows.map((_, i) => String(i)), range: [0, innerHeight], padding: 0.3 });
  const x = scaleLinear<number>({
    domain: [0, Math.max(...totals, 1e-9) / unit.seconds],
    range: [0, innerWidth],
    nice: true,
  });
  const xTicks = tickCount(innerWidth, 70, 6);
  const label = `Time in status by ${groupLabels[group].toLowerCase()}, stacked horizontal bars of the mean ${unit.name} per status: ${rows
    .map((r) => `${r.label} ${flowStatuses.map((s) => `${names[s]} ${formatDuration(r[s])}`).join(', ')}`)
    .join('; ')}.`;
  return (
    <div ref={ref} style={{ height }}>
      {width > 0 ? (
        <svg width={width} height={height} role="img" aria-label={label}>
          <Group left={left} top={margin.top}>
            {x.ticks(xTicks).map((tick) => (
              <line key={tick} x1={x(tick)} x2={x(tick)} y1={0} y2={innerHeight} stroke={GRID_COLOR} />
            ))}
            {rows.map((row, index) => {
              let offset = 0;
              return (
                <Group key={String(index)} top={y(String(index)) ?? 0}>
                  {flowStatuses.map((status) => {
                    const start = offset;
                    offset += row[status] / unit.seconds;
                    const barWidth = x(offset) - x(start);
                    return barWidth > 0 ? (
                      <Bar
                        key={status}
                        x={x(start)}
                        y={0}
                        width={barWidth}
                        height={y.bandwidth()}
                        fill={statusColors[status]}
                      >
                        <title>{`${row.label}, ${names[status]}: ${formatDuration(row[status])} on average`}</title>
                      </Bar>
                    ) : null;
                  })}
                </Group>
              );
            })}
            <AxisLeft
              scale={y}
              stroke={AXIS_COLOR}
              tickStroke="transparent"
              tickFormat={(value) => {
                const text = rows[Number(value)]?.label ?? '';
                return text.length > fits ? `${text.slice(0, fits - 1)}…` : text;
              }}
              tickLabelProps={{ fill: 'var(--color-slate-600)', fontSize: 12, textAnchor: 'end', dx: -6, dy: 4 }}
            />
            <AxisBottom
              top={innerHeight}
              scale={x}
              numTicks={xTicks}
              tickFormat={(v) => String(Number(v))}
              label={`Mean ${unit.name} per bug`}
              labelOffset={10}
              labelProps={{ fill: 'var(--color-slate-600)', fontSize: 11, textAnchor: 'middle' }}
              stroke={AXIS_COLOR}
              tickStroke={AXIS_COLOR}
              tickLabelProps={{ ...tickLabel, textAnchor: 'middle' }}
            />
          </Group>
        </svg>
      ) : null}
    </div>
  );
}
