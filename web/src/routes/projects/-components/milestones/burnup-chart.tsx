import { AxisBottom } from '@visx/axis';
import { Group } from '@visx/group';
import { scaleLinear, scaleUtc } from '@visx/scale';
import { LinePath } from '@visx/shape';
import { useMemo } from 'react';
import {
  AXIS_COLOR,
  CHART_HEIGHT,
  ChartLegend,
  CountAxis,
  EmptyChart,
  GRID_COLOR,
  thinTicks,
  tickCount,
  tickLabel,
  useWidth,
} from '../../../../components/flow/chart-frame';
import { formatDay, formatShortDay } from '../../../../components/flow/flow-dates';
import type { BurnupDay } from '../../../../lib/planning';

const DAY_MS = 86_400_000;
const margin = { top: 12, right: 16, bottom: 28, left: 40 };
/** Scope in the brand's violet, closed in the done green (the Flow page's Open and Closed). */
export const burnupColors = { scope: '#8D51FF', closed: '#7BCE00' } as const;

type Point = BurnupDay & { at: Date };

/**
 * A milestone's burn-up (api.md "Milestones"): at the end of each day, how many bugs were in it
 * (scope) and how many of those were Closed. The gap between the lines is the work left; a due
 * date inside the range is marked. Drawn as the Flow page draws its charts (visx, measured width).
 */
export function BurnupChart({ days, dueDate }: { days: BurnupDay[]; dueDate: string | null }) {
  if (days.length === 0) return <EmptyChart text="No days to show yet" />;
  return (
    <>
      <BurnupLines days={days} dueDate={dueDate} />
      <ChartLegend
        className="mt-3 justify-center"
        items={[
          { label: 'Scope', color: burnupColors.scope, shape: 'dash' },
          { label: 'Closed', color: burnupColors.closed },
        ]}
      />
    </>
  );
}

function BurnupLines({ days, dueDate }: { days: BurnupDay[]; dueDate: string | null }) {
  const { ref, width } = useWidth<HTMLDivElement>();
  const points = useMemo<Point[]>(() => {
    const list = days.map((d) => ({ ...d, at: new Date(`${d.date}T00:00:00Z`) }));
    // One day alone would draw as a dot: hold its counts across the whole day.
    const only = list.length === 1 ? list[0] : undefined;
    return only ? [only, { ...only, at: new Date(only.at.getTime() + DAY_MS) }] : list;
  }, [days]);
  const innerWidth = Math.max(0, width - margin.left - margin.right);
  const innerHeight = CHART_HEIGHT - margin.top - margin.bottom;
  const first = points[0]!;
  const last = points.at(-1)!;
  const due = dueDate ? new Date(`${dueDate}T00:00:00Z`) : null;
  // Up to the due date when it is still ahead (within a year): the room left shows.
  const end = due && due > last.at && due.getTime() - last.at.getTime() < 366 * DAY_MS ? due : last.at;
  const x = scaleUtc<number>({ domain: [first.at, end], range: [0, innerWidth] });
  const max = Math.max(1, ...points.map((p) => Math.max(p.scope, p.closed)));
  const y = scaleLinear<number>({ domain: [0, max], range: [innerHeight, 0], nice: true });
  const xTicks = tickCount(innerWidth, 64, 8);
  const yTicks = y.ticks(Math.min(5, max)).filter(Number.isInteger);
  const isDueShown = due !== null && due >= first.at && due <= end;
  const final = days.at(-1)!;
  const label = `Burn-up from ${formatDay(days[0]!.date)} to ${formatDay(final.date)}: bugs in the milestone (scope) and bugs closed at the end of each day. On ${formatDay(final.date)}: ${final.closed} of ${final.scope} closed.`;
  return (
    <div ref={ref} style={{ height: CHART_HEIGHT }}>
      {width > 0 ? (
        <svg width={width} height={CHART_HEIGHT} role="img" aria-label={label} data-burnup>
          <Group left={margin.left} top={margin.top}>
            {yTicks.map((tick) => (
              <line key={tick} x1={0} x2={innerWidth} y1={y(tick)} y2={y(tick)} stroke={GRID_COLOR} />
            ))}
            {isDueShown ? (
              <g>
                <line
                  x1={x(due)}
                  x2={x(due)}
                  y1={0}
                  y2={innerHeight}
                  stroke="var(--color-rose-400)"
                  strokeDasharray="2 3"
                />
                <text
                  x={x(due)}
                  y={8}
                  dx={x(due) > innerWidth - 40 ? -4 : 4}
                  textAnchor={x(due) > innerWidth - 40 ? 'end' : 'start'}
                  fontSize={11}
                  fill="var(--color-rose-700)"
                >
                  Due
                </text>
              </g>
            ) : null}
            <LinePath<Point>
              data={points}
              x={(d) => x(d.at)}
              y={(d) => y(d.scope)}
              stroke={burnupColors.scope}
              strokeWidth={2}
              strokeDasharray="6 4"
              data-series="scope"
            />
            <LinePath<Point>
              data={points}
              x={(d) => x(d.at)}
              y={(d) => y(d.closed)}
              stroke={burnupColors.closed}
              strokeWidth={2.5}
              data-series="closed"
            />
            <CountAxis scale={y} ticks={yTicks} />
            <AxisBottom
              top={innerHeight}
              scale={x}
              {...(end === last.at && days.length <= xTicks
                ? { tickValues: days.map((d) => new Date(`${d.date}T00:00:00Z`)) }
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
