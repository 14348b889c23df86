import { AxisBottom } from '@visx/axis';
import { Group } from '@visx/group';
import { scaleBand, scaleLinear } from '@visx/scale';
import { Bar } from '@visx/shape';
import { useMemo } from 'react';
import {
  AXIS_COLOR,
  CHART_HEIGHT,
  ChartLegend,
  CountAxis,
  EmptyChart,
  FlowCard,
  GRID_COLOR,
  tickLabel,
  useWidth,
} from './chart-frame';
import { csvFileName } from './csv';
import { fillWeeks, formatDay, isoWeekStart } from './flow-dates';
import { type FlowViewer, statusColors, statusNames } from './flow-status';
import type { FlowMetrics } from './flow-types';

type Week = FlowMetrics['weekly'][number];
const series = [
  { key: 'opened', color: statusColors.Open },
  { key: 'closed', color: statusColors.Closed },
] as const;
const margin = { top: 12, right: 8, bottom: 28, left: 36 };

export function WeeklyCard({
  data,
  isLoading,
  isUpdating,
  viewAs,
}: {
  data: FlowMetrics | undefined;
  isLoading: boolean;
  isUpdating: boolean;
  viewAs: FlowViewer;
}) {
  const closedWord = statusNames(viewAs).Closed;
  const weeks = useMemo(
    () => fillWeeks(data?.weekly ?? [], (week) => ({ week, opened: 0, closed: 0 })),
    [data?.weekly],
  );
  const table = data
    ? {
        header: ['week', 'week_start', 'opened', closedWord.toLowerCase()],
        rows: weeks.map((w) => [w.week, isoWeekStart(w.week)?.toISOString().slice(0, 10) ?? '', w.opened, w.closed]),
      }
    : null;
  const names = { opened: 'Opened', closed: closedWord };
  return (
    <FlowCard
      title={`Opened vs ${closedWord.toLowerCase()} per week`}
      subtitle={`Bugs reported and bugs moved to ${closedWord} in each ISO week (UTC).`}
      csv={{ fileName: csvFileName('weekly', data?.asOf), table }}
      isLoading={isLoading}
      isUpdating={isUpdating}
    >
      {weeks.length > 0 ? (
        <>
          <WeeklyBars weeks={weeks} names={names} />
          <ChartLegend
            className="mt-3 justify-center"
            items={series.map((s) => ({ label: names[s.key], color: s.color }))}
          />
        </>
      ) : (
        <EmptyChart text={`No bugs opened or ${closedWord.toLowerCase()} in this range`} />
      )}
    </FlowCard>
  );
}

function WeeklyBars({ weeks, names }: { weeks: Week[]; names: Record<'opened' | 'closed', string> }) {
  const { ref, width } = useWidth<HTMLDivElement>();
  const innerWidth = Math.max(0, width - margin.left - margin.right);
  const innerHeight = CHART_HEIGHT - margin.top - margin.bottom;
  // A few weeks would make slabs: at most 96px a week, the group centred.
  const used = Math.min(innerWidth, weeks.length * 96);
  const gap = (innerWidth - used) / 2;
  const x = scaleBand<string>({ domain: weeks.map((w) => w.week), range: [gap, gap + used], padding: 0.25 });
  const inner = scaleBand<string>({ domain: series.map((s) => s.key), range: [0, x.bandwidth()], padding: 0.08 });
  const max = Math.max(1, ...weeks.flatMap((w) => [w.opened, w.closed]));
  const y = scaleLinear<number>({ domain: [0, max], range: [innerHeight, 0], nice: true });
  const yTicks = y.ticks(Math.min(5, max)).filter(Number.isInteger);
  // A label every few weeks, so they never run into each other.
  const every = Math.max(1, Math.ceil((weeks.length * 52) / Math.max(1, innerWidth)));
  const shown = weeks.filter((_, i) => (weeks.length - 1 - i) % every === 0).map((w) => w.week);
  const first = weeks[0]!;
  const last = weeks.at(-1)!;
  const totals = weeks.reduce((sum, w) => ({ opened: sum.opened + w.opened, closed: sum.closed + w.closed }), {
    opened: 0,
    closed: 0,
  });
  const label = `Weekly ${names.opened.toLowerCase()} vs ${names.closed.toLowerCase()} bars, ${weeks.length} weeks from ${formatDay(isoWeekStart(first.week) ?? first.week)} (${first.week}) to ${last.week}: ${totals.opened} ${names.opened.toLowerCase()}, ${totals.closed} ${names.closed.toLowerCase()} in all.`;
  return (
    <div ref={ref} style={{ height: CHART_HEIGHT }}>
      {width > 0 ? (
        <svg width={width} height={CHART_HEIGHT} role="img" aria-label={label}>
          <Group left={margin.left} top={margin.top}>
            {yTicks.map((tick) => (
              <line key={tick} x1={0} x2={innerWidth} y1={y(tick)} y2={y(tick)} stroke={GRID_COLOR} />
            ))}
            {weeks.map((w) => (
              <Group key={w.week} left={x(w.week) ?? 0}>
                {series.map((s) => {
                  const value = w[s.key];
                  const barY = y(value);
                  return (
                    <Bar
                      key={s.key}
                      x={inner(s.key) ?? 0}
                      y={barY}
                      width={Math.max(1, inner.bandwidth())}
                      height={Math.max(0, innerHeight - barY)}
                      rx={Math.min(3, inner.bandwidth() / 3)}
                      fill={s.color}
                    >
                      <title>{`${w.week}: ${value} ${names[s.key].toLowerCase()}`}</title>
                    </Bar>
                  );
                })}
              </Group>
            ))}
            <CountAxis scale={y} ticks={yTicks} />
            <line x1={0} x2={innerWidth} y1={innerHeight} y2={innerHeight} stroke={AXIS_COLOR} />
            <AxisBottom
              top={innerHeight}
              scale={x}
              hideAxisLine
              tickValues={shown}
              tickFormat={(week) => {
                const [year, number] = String(week).split('-');
                return number === 'W01' || week === shown[0] ? `${number} ${year}` : (number ?? String(week));
              }}
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
