import { AxisBottom, AxisLeft } from '@visx/axis';
import { Group } from '@visx/group';
import { scaleBand, scaleLinear } from '@visx/scale';
import { Bar } from '@visx/shape';
import { AXIS_COLOR, EmptyChart, FlowCard, GRID_COLOR, tickCount, tickLabel, useWidth } from './chart-frame';
import { csvFileName } from './csv';
import { type FlowViewer, statusColors, statusNames } from './flow-status';
import type { FlowMetrics, StateTime } from './flow-types';
import { durationUnitFor, formatDuration } from './format-duration';

const ROW = 34;
const margin = { top: 4, right: 16, bottom: 44, left: 0 };
const REMOVED_COLOR = 'var(--color-slate-400)';

/**
 * Time in each workflow state of one project (issue 37): a bar per state in board order, the
 * mean time a bug reported in the range spent there, coloured by the state's category.
 */
export function TimeInStateCard({
  data,
  project,
  isLoading,
  isUpdating,
  viewAs,
}: {
  data: FlowMetrics | undefined;
  project: string;
  isLoading: boolean;
  isUpdating: boolean;
  viewAs: FlowViewer;
}) {
  const rows = data?.timeInState ?? [];
  const names = statusNames(viewAs);
  const table = data
    ? {
        header: ['state_id', 'state', 'category', 'mean_seconds'],
        rows: rows.map((r) => [r._id, r.name, r.category ? names[r.category] : '', r.seconds]),
      }
    : null;
  const height = Math.max(150, rows.length * ROW + margin.top + margin.bottom);
  return (
    <FlowCard
      title={`Time in each state of ${project}`}
      subtitle="Mean time a bug reported in the range spent in each workflow state, in board order."
      csv={{ fileName: csvFileName(`time-in-state-${project.toLowerCase()}`, data?.asOf), table }}
      isLoading={isLoading}
      isUpdating={isUpdating}
      height={220}
    >
      {rows.some((r) => r.seconds > 0) ? (
        <StateBars rows={rows} height={height} />
      ) : (
        <EmptyChart text="No bugs reported in this range" />
      )}
    </FlowCard>
  );
}

function StateBars({ rows, height }: { rows: StateTime[]; height: number }) {
  const { ref, width } = useWidth<HTMLDivElement>();
  const longest = Math.max(...rows.map((r) => r.name.length));
  const left = Math.round(Math.min(width < 480 ? 96 : 140, Math.max(48, longest * 6.6 + 12)));
  const fits = Math.max(4, Math.floor((left - 12) / 6.6));
  const innerWidth = Math.max(0, width - left - margin.right);
  const innerHeight = height - margin.top - margin.bottom;
  const unit = durationUnitFor(Math.max(...rows.map((r) => r.seconds)));
  const y = scaleBand<string>({ domain: rows.map((_, i) => String(i)), range: [0, innerHeight], padding: 0.3 });
  const x = scaleLinear<number>({
    domain: [0, Math.max(...rows.map((r) => r.seconds), 1e-9) / unit.seconds],
    range: [0, innerWidth],
    nice: true,
  });
  const xTicks = tickCount(innerWidth, 70, 6);
  const label = `Time in each state, horizontal bars of the mean ${unit.name} per bug: ${rows
    .map((r) => `${r.name} ${formatDuration(r.seconds)}`)
    .join(', ')}.`;
  return (
    <div ref={ref} style={{ height }}>
      {width > 0 ? (
        <svg width={width} height={height} role="img" aria-label={label}>
          <Group left={left} top={margin.top}>
            {x.ticks(xTicks).map((tick) => (
              <line key={tick} x1={x(tick)} x2={x(tick)} y1={0} y2={innerHeight} stroke={GRID_COLOR} />
            ))}
            {rows.map((row, index) => (
              <Bar
                key={row._id}
                x={0}
                y={y(String(index)) ?? 0}
                width={Math.max(0, x(row.seconds / unit.seconds))}
                height={y.bandwidth()}
                fill={row.category ? statusColors[row.category] : REMOVED_COLOR}
              >
                <title>{`${row.name}: ${formatDuration(row.seconds)} on average`}</title>
              </Bar>
            ))}
            <AxisLeft
              scale={y}
              stroke={AXIS_COLOR}
              tickStroke="transparent"
              tickFormat={(value) => {
                const text = rows[Number(value)]?.name ?? '';
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
