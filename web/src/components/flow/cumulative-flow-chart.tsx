import { AxisBottom } from '@visx/axis';
import { Group } from '@visx/group';
import { scaleLinear, scaleUtc } from '@visx/scale';
import { AreaStack } from '@visx/shape';
import { useMemo } from 'react';
import type { BugStatus } from '../../lib/types';
import {
  AXIS_COLOR,
  CHART_HEIGHT,
  ChartLegend,
  CountAxis,
  EmptyChart,
  FlowCard,
  GRID_COLOR,
  thinTicks,
  tickCount,
  tickLabel,
  useWidth,
} from './chart-frame';
import { csvFileName } from './csv';
import { formatDay, formatShortDay } from './flow-dates';
import { type FlowViewer, statusColors, statusColumn, statusNames } from './flow-status';
import type { CumulativeFlow, FlowDay } from './flow-types';

const DAY_MS = 86_400_000;
/** Resolved at the bottom, Pending on top: work flows down through the bands. */
const stackOrder: BugStatus[] = ['Closed', 'In Progress', 'Open'];
const margin = { top: 12, right: 16, bottom: 28, left: 40 };

type Point = FlowDay & { at: Date };

export function CumulativeFlowCard({
  data,
  isLoading,
  isUpdating,
  viewAs,
}: {
  data: CumulativeFlow | undefined;
  isLoading: boolean;
  isUpdating: boolean;
  viewAs: FlowViewer;
}) {
  const names = statusNames(viewAs);
  // Days on which no bug existed yet are still days: the chart is empty only when every one is.
  const hasBugs = !!data?.points.some((p) => p.Open + p['In Progress'] + p.Closed > 0);
  const table = data
    ? {
        header: [
          data.granularity === 'week' ? 'week_start' : 'date',
          ...stackOrder.toReversed().map((s) => statusColumn(s, viewAs)),
        ],
        rows: data.points.map((p) => [p.date, p.Open, p['In Progress'], p.Closed]),
      }
    : null;
  return (
    <FlowCard
      title="Cumulative flow"
      subtitle={`Bugs in each status at the end of each ${data?.granularity === 'week' ? 'week' : 'day'}.`}
      csv={{ fileName: csvFileName('cumulative', data?.asOf), table }}
      isLoading={isLoading}
      isUpdating={isUpdating}
    >
      {data && hasBugs ? (
        <>
          <CumulativeFlowChart data={data} names={names} />
          <ChartLegend
            className="mt-3 justify-center"
            items={stackOrder.toReversed().map((s) => ({ label: names[s], color: statusColors[s] }))}
          />
        </>
      ) : (
        <EmptyChart text="No bugs in this range" />
      )}
    </FlowCard>
  );
}

function CumulativeFlowChart({ data, names }: { data: CumulativeFlow; names: Readonly<Record<BugStatus, string>> }) {
  const { ref, width } = useWidth<HTMLDivElement>();
  const step = data.granularity === 'week' ? 7 * DAY_MS : DAY_MS;
  const points = useMemo<Point[]>(() => {
    const list = data.points.map((p) => ({ ...p, at: new Date(`${p.date}T00:00:00Z`) }));
    // One day alone would draw as a hairline: hold its counts across the whole day.
    const only = list.length === 1 ? list[0] : undefined;
    return only ? [only, { ...only, at: new Date(only.at.getTime() + step) }] : list;
  }, [data.points, step]);
  const innerWidth = Math.max(0, width - margin.left - margin.right);
  const innerHeight = CHART_HEIGHT - margin.top - margin.bottom;
  const first = points[0]!;
  const last = points.at(-1)!;
  const x = scaleUtc<number>({ domain: [first.at, last.at], range: [0, innerWidth] });
  const max = Math.max(1, ...points.map((p) => p.Open + p['In Progress'] + p.Closed));
  const y = scaleLinear<number>({ domain: [0, max], range: [innerHeight, 0], nice: true });
  const xTicks = tickCount(innerWidth, 64, 8);
  const yTicks = y.ticks(Math.min(5, max)).filter(Number.isInteger);
  const final = data.points.at(-1)!;
  const label = `Cumulative flow diagram from ${formatDay(data.points[0]!.date)} to ${formatDay(final.date)}: stacked areas of bugs ${names.Open}, ${names['In Progress']} and ${names.Closed} at the end of each ${data.granularity}. At the end: ${final.Open} ${names.Open}, ${final['In Progress']} ${names['In Progress']}, ${final.Closed} ${names.Closed}.`;
  return (
    <div ref={ref} style={{ height: CHART_HEIGHT }}>
      {width > 0 ? (
        <svg width={width} height={CHART_HEIGHT} role="img" aria-label={label}>
          <Group left={margin.left} top={margin.top}>
            {yTicks.map((tick) => (
              <line key={tick} x1={0} x2={innerWidth} y1={y(tick)} y2={y(tick)} stroke={GRID_COLOR} />
            ))}
            <AreaStack<Point, BugStatus>
              keys={stackOrder}
              data={points}
              value={(d, key) => d[key]}
              x={(d) => x(d.data.at)}
              y0={(d) => y(d[0])}
              y1={(d) => y(d[1])}
            >
              {({ stacks, path }) =>
                stacks.map((stack) => (
                  <path
                    key={stack.key}
                    d={path(stack) ?? ''}
                    fill={statusColors[stack.key]}
                    fillOpacity={0.85}
                    stroke="var(--color-white)"
                    strokeWidth={1}
                  />
                ))
              }
            </AreaStack>
            <CountAxis scale={y} ticks={yTicks} />
            <AxisBottom
              top={innerHeight}
              scale={x}
              {...(data.points.length <= xTicks
                ? { tickValues: data.points.map((p) => new Date(`${p.date}T00:00:00Z`)) }
                : { tickValues: thinTicks(x.ticks(xTicks), xTicks) })}
              tickFormat={(v) => formatShortDay(v as Date)}
              stroke={AXIS_COLOR}
              tickStroke={AXIS_COLOR}
              tickLabelProps={(value) => {
                // A label near an edge leans inwards, so it is never cut off.
                const at = x(value as Date);
                return { ...tickLabel, textAnchor: at < 24 ? 'start' : at > innerWidth - 24 ? 'end' : 'middle' };
              }}
            />
          </Group>
        </svg>
      ) : null}
    </div>
  );
}
