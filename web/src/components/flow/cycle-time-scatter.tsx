import { AxisBottom, AxisLeft } from '@visx/axis';
import { Group } from '@visx/group';
import { scaleLinear, scaleUtc } from '@visx/scale';
import { Line } from '@visx/shape';
import { useMemo } from 'react';
import type { UserRef } from '../../lib/types';
import {
  AXIS_COLOR,
  ChartLegend,
  EmptyChart,
  FlowCard,
  GRID_COLOR,
  type LegendItem,
  thinTicks,
  tickCount,
  tickLabel,
  useWidth,
} from './chart-frame';
import { csvFileName } from './csv';
import { formatDay, formatShortDay, formatTime } from './flow-dates';
import { groupColor, groupCsvCells, groupCsvHeader, groupKeyLabel, groupLabels } from './flow-groups';
import type { CycleTimes, FlowGroup, Percentiles } from './flow-types';
import { type DurationUnit, durationUnitFor, formatDuration } from './format-duration';

const HEIGHT = 300;
const HOUR_MS = 3_600_000;
const margin = { top: 16, right: 16, bottom: 28, left: 52 };
const lines = [
  { key: 'p50', color: 'var(--color-slate-700)' },
  { key: 'p85', color: 'var(--color-slate-500)' },
  { key: 'p95', color: 'var(--color-slate-400)' },
] as const;

export function CycleTimeScatterCard({
  data,
  percentiles,
  group,
  keyOrder,
  people,
  isLoading,
  isUpdating,
}: {
  data: CycleTimes | undefined;
  percentiles: Percentiles | undefined;
  group: FlowGroup;
  keyOrder: (string | null)[];
  people: ReadonlyMap<string, UserRef>;
  isLoading: boolean;
  isUpdating: boolean;
}) {
  const table = data
    ? {
        header: ['bug_id', 'title', 'closed_at', 'cycle_time_seconds', ...groupCsvHeader(group)],
        rows: data.points.map((p) => [p.bugId, p.title, p.closedAt, p.seconds, ...groupCsvCells(group, p.key, people)]),
      }
    : null;
  const subtitle =
    data && data.total > data.points.length
      ? `The newest ${data.points.length} of ${data.total} resolved bugs; lines over all of them.`
      : 'Each resolved bug: when it was resolved and how long it took from Pending.';
  return (
    <FlowCard
      title="Cycle time per bug"
      subtitle={subtitle}
      csv={{ fileName: csvFileName('cycle-times', data?.asOf), table }}
      isLoading={isLoading}
      isUpdating={isUpdating}
      height={HEIGHT}
    >
      {data && data.points.length > 0 ? (
        <Scatter data={data} percentiles={percentiles} group={group} keyOrder={keyOrder} people={people} />
      ) : (
        <EmptyChart text="No bugs resolved in this range" />
      )}
    </FlowCard>
  );
}

function Scatter({
  data,
  percentiles,
  group,
  keyOrder,
  people,
}: {
  data: CycleTimes;
  percentiles: Percentiles | undefined;
  group: FlowGroup;
  keyOrder: (string | null)[];
  people: ReadonlyMap<string, UserRef>;
}) {
  const { ref, width } = useWidth<HTMLDivElement>();
  const points = useMemo(() => data.points.map((p) => ({ ...p, at: new Date(p.closedAt) })), [data.points]);
  const keys = useMemo(() => {
    const present = new Set(points.map((p) => p.key));
    const ordered = keyOrder.filter((k) => present.has(k));
    for (const k of present) if (!ordered.includes(k)) ordered.push(k);
    return ordered;
  }, [points, keyOrder]);
  const colorOf = (key: string | null) => groupColor(group, key, Math.max(0, keys.indexOf(key)));

  const marks = lines
    .map((line) => ({ ...line, seconds: percentiles?.[line.key] ?? null }))
    .filter((line): line is (typeof lines)[number] & { seconds: number } => line.seconds !== null);
  const maxSeconds = Math.max(...points.map((p) => p.seconds), ...marks.map((m) => m.seconds));
  const unit: DurationUnit = durationUnitFor(maxSeconds);

  const innerWidth = Math.max(0, width - margin.left - margin.right);
  const innerHeight = HEIGHT - margin.top - margin.bottom;
  const times = points.map((p) => p.at.getTime());
  let start = Math.min(...times);
  let end = Math.max(...times);
  // Points within a day or so: give them room, so they do not sit on the axis ends.
  if (end - start < 24 * HOUR_MS) {
    const middle = (start + end) / 2;
    start = middle - 12 * HOUR_MS;
    end = middle + 12 * HOUR_MS;
  }
  const span = end - start;
  const x = scaleUtc<number>({ domain: [new Date(start), new Date(end)], range: [0, innerWidth] });
  const y = scaleLinear<number>({
    domain: [0, (maxSeconds / unit.seconds) * 1.08],
    range: [innerHeight, 0],
    nice: true,
  });
  const xTicks = tickCount(innerWidth, span <= 3 * 24 * HOUR_MS ? 130 : 64, 8);
  const formatX = (date: Date) =>
    span <= 3 * 24 * HOUR_MS ? `${formatShortDay(date)} ${formatTime(date)}` : formatShortDay(date);

  // Percentile labels sit above their lines at the right; close values are nudged apart.
  let previous = Number.POSITIVE_INFINITY;
  const labelled = marks.map((mark) => {
    const lineY = y(mark.seconds / unit.seconds);
    const labelY = Math.max(10, Math.min(lineY - 4, previous - 13));
    previous = labelY;
    return { ...mark, lineY, labelY };
  });

  const legend: LegendItem[] = keys.map((key) => ({
    label: groupKeyLabel(group, key, people),
    color: colorOf(key),
    shape: 'dot',
  }));
  const label = `Cycle time scatter: ${points.length} resolved bugs from ${formatDay(new Date(start))} to ${formatDay(new Date(end))}, each placed by the day it was resolved and its cycle time in ${unit.name}. ${marks.map((m) => `${m.key} ${formatDuration(m.seconds)}`).join(', ')}.`;

  return (
    <>
      <div ref={ref} style={{ height: HEIGHT }}>
        {width > 0 ? (
          <svg width={width} height={HEIGHT} role="img" aria-label={label}>
            <Group left={margin.left} top={margin.top}>
              {y.ticks(5).map((tick) => (
                <line key={tick} x1={0} x2={innerWidth} y1={y(tick)} y2={y(tick)} stroke={GRID_COLOR} />
              ))}
              {points.map((p) => (
                <circle
                  key={p.bugId}
                  cx={x(p.at)}
                  cy={y(p.seconds / unit.seconds)}
                  r={4.5}
                  fill={colorOf(p.key)}
                  fillOpacity={0.8}
                  stroke="var(--color-white)"
                  strokeWidth={1}
                >
                  <title>{`${p.title || 'Untitled Bug'}: ${formatDuration(p.seconds)}, resolved ${formatDay(p.closedAt)} (${groupLabels[group]}: ${groupKeyLabel(group, p.key, people)})`}</title>
                </circle>
              ))}
              {labelled.map((mark) => (
                <Group key={mark.key}>
                  <Line
                    from={{ x: 0, y: mark.lineY }}
                    to={{ x: innerWidth, y: mark.lineY }}
                    stroke={mark.color}
                    strokeWidth={1.25}
                    strokeDasharray="5 4"
                  />
                  <text
                    x={innerWidth - 2}
                    y={mark.labelY}
                    textAnchor="end"
                    fontSize={11}
                    fontWeight={600}
                    fill={mark.color}
                    stroke="var(--color-white)"
                    strokeWidth={3}
                    paintOrder="stroke"
                  >
                    {`${mark.key} ${formatDuration(mark.seconds)}`}
                  </text>
                </Group>
              ))}
              <AxisLeft
                scale={y}
                numTicks={5}
                tickFormat={(v) => String(Number(v))}
                label={`Cycle time (${unit.name})`}
                labelOffset={30}
                labelProps={{ fill: 'var(--color-slate-600)', fontSize: 11, textAnchor: 'middle' }}
                stroke={AXIS_COLOR}
                tickStroke={AXIS_COLOR}
                tickLabelProps={{ ...tickLabel, textAnchor: 'end', dx: -4, dy: 3 }}
              />
              <AxisBottom
                top={innerHeight}
                scale={x}
                tickValues={thinTicks(x.ticks(xTicks), xTicks)}
                tickFormat={(v) => formatX(v as Date)}
                stroke={AXIS_COLOR}
                tickStroke={AXIS_COLOR}
                tickLabelProps={(value) => {
                  // A label near an edge leans inwards, so it is never cut off.
                  const at = x(value as Date);
                  const anchor = at < 40 ? 'start' : at > innerWidth - 40 ? 'end' : 'middle';
                  return { ...tickLabel, textAnchor: anchor };
                }}
              />
            </Group>
          </svg>
        ) : null}
      </div>
      <ChartLegend
        className="mt-3 justify-center"
        items={[...legend, ...marks.map((m) => ({ label: m.key, color: m.color, shape: 'dash' as const }))]}
      />
    </>
  );
}
