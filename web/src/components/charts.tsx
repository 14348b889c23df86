import { AxisBottom, AxisLeft } from '@visx/axis';
import { Group } from '@visx/group';
import { scaleBand, scaleLinear } from '@visx/scale';
import { Bar, Pie } from '@visx/shape';
import { useLayoutEffect, useRef, useState } from 'react';
import { formatNumber } from '../lib/format';

/** The spec's chart palette, in order. */
export const chartColors = ['#8D51FF', '#00B8DB', '#7BCE00'] as const;
export const DOUGHNUT_HEIGHT = 325;
export const BAR_HEIGHT = 300;

/**
 * The element's width, measured before paint and kept on resize. A zero width (the
 * element detached or hidden for a moment) keeps the last real one, so a chart
 * never blanks out while the page is re-laid out.
 */
export function useWidth<T extends HTMLElement>() {
  const ref = useRef<T>(null);
  const [width, setWidth] = useState(0);
  useLayoutEffect(() => {
    const node = ref.current;
    if (!node) return;
    const measure = (next: number) => {
      if (next > 0) setWidth((current) => (Math.abs(current - next) >= 1 ? Math.floor(next) : current));
    };
    measure(node.getBoundingClientRect().width);
    const observer = new ResizeObserver((entries) => measure(entries[0]?.contentRect.width ?? 0));
    observer.observe(node);
    return () => observer.disconnect();
  }, []);
  return { ref, width };
}

export type Slice = { label: string; value: number };

function colorAt(index: number) {
  return chartColors[index % chartColors.length] ?? chartColors[0];
}

function Legend({ data }: { data: Slice[] }) {
  return (
    <ul className="flex flex-wrap justify-center gap-x-5 gap-y-2 text-sm">
      {data.map((slice, index) => (
        <li key={slice.label} className="flex items-center gap-2 text-slate-600">
          <span className="size-2.5 rounded-full" style={{ backgroundColor: colorAt(index) }} aria-hidden="true" />
          {slice.label}
          <span className="font-semibold text-slate-900">{formatNumber(slice.value)}</span>
        </li>
      ))}
    </ul>
  );
}

export function DoughnutChart({ data, label }: { data: Slice[]; label: string }) {
  const { ref: parentRef, width } = useWidth<HTMLDivElement>();
  const total = data.reduce((sum, slice) => sum + slice.value, 0);
  const legendSpace = 44;
  const size = Math.max(0, Math.min(width, DOUGHNUT_HEIGHT - legendSpace));
  const radius = size / 2;
  return (
    <figure className="flex flex-col" style={{ height: DOUGHNUT_HEIGHT }} aria-label={label}>
      <div ref={parentRef} className="flex min-h-0 flex-1 items-center justify-center">
        {width > 0 ? (
          <svg
            width={size}
            height={size}
            role="img"
            aria-label={`${label}: ${data.map((d) => `${d.label} ${d.value}`).join(', ')}`}
          >
            <Group top={radius} left={radius}>
              {total === 0 ? (
                <circle r={radius * 0.81} fill="none" stroke="var(--color-slate-200)" strokeWidth={radius * 0.38} />
              ) : (
                <Pie
                  data={data}
                  pieValue={(slice) => slice.value}
                  outerRadius={radius}
                  innerRadius={radius * 0.62}
                  padAngle={data.filter((slice) => slice.value > 0).length > 1 ? 0.015 : 0}
                  cornerRadius={3}
                >
                  {(pie) =>
                    pie.arcs.map((arc, index) => (
                      <path key={arc.data.label} d={pie.path(arc) ?? ''} fill={colorAt(index)} />
                    ))
                  }
                </Pie>
              )}
              <text textAnchor="middle" dy="-0.1em" className="fill-slate-900 text-2xl font-bold">
                {formatNumber(total)}
              </text>
              <text textAnchor="middle" dy="1.5em" className="fill-slate-500 text-xs">
                Total
              </text>
            </Group>
          </svg>
        ) : null}
      </div>
      <figcaption className="pt-3">
        <Legend data={data} />
      </figcaption>
    </figure>
  );
}

export function BarChart({ data, label }: { data: Slice[]; label: string }) {
  const { ref: parentRef, width } = useWidth<HTMLElement>();
  const margin = { top: 16, right: 8, bottom: 32, left: 40 };
  const innerWidth = Math.max(0, width - margin.left - margin.right);
  const innerHeight = BAR_HEIGHT - margin.top - margin.bottom;
  const max = Math.max(1, ...data.map((slice) => slice.value));
  const x = scaleBand<string>({ domain: data.map((slice) => slice.label), range: [0, innerWidth], padding: 0.45 });
  const y = scaleLinear<number>({ domain: [0, max], range: [innerHeight, 0], nice: true });
  const ticks = Math.min(5, max);
  return (
    <figure ref={parentRef} style={{ height: BAR_HEIGHT }} aria-label={label}>
      {width > 0 ? (
        <svg
          width={width}
          height={BAR_HEIGHT}
          role="img"
          aria-label={`${label}: ${data.map((d) => `${d.label} ${d.value}`).join(', ')}`}
        >
          <Group left={margin.left} top={margin.top}>
            {y.ticks(ticks).map((tick) => (
              <line key={tick} x1={0} x2={innerWidth} y1={y(tick)} y2={y(tick)} stroke="var(--color-slate-100)" />
            ))}
            {data.map((slice, index) => {
              const barX = x(slice.label) ?? 0;
              const barY = y(slice.value);
              return (
                <Group key={slice.label}>
                  <Bar
                    x={barX}
                    y={barY}
                    width={x.bandwidth()}
                    height={innerHeight - barY}
                    rx={6}
                    fill={colorAt(index)}
                  />
                  <text
                    x={barX + x.bandwidth() / 2}
                    y={barY - 6}
                    textAnchor="middle"
                    className="fill-slate-700 text-xs font-semibold"
                  >
                    {formatNumber(slice.value)}
                  </text>
                </Group>
              );
            })}
            <AxisLeft
              scale={y}
              numTicks={ticks}
              tickFormat={(value) => formatNumber(Number(value))}
              stroke="var(--color-slate-200)"
              tickStroke="var(--color-slate-200)"
              tickLabelProps={{ fill: 'var(--color-slate-500)', fontSize: 11, textAnchor: 'end', dx: -4, dy: 3 }}
            />
            <AxisBottom
              top={innerHeight}
              scale={x}
              stroke="var(--color-slate-200)"
              tickStroke="transparent"
              tickLabelProps={{ fill: 'var(--color-slate-600)', fontSize: 12, textAnchor: 'middle' }}
            />
          </Group>
        </svg>
      ) : null}
    </figure>
  );
}
