import { AxisLeft } from '@visx/axis';
import type { scaleLinear } from '@visx/scale';
import { Download } from 'lucide-react';
import type { ReactNode } from 'react';
import { Button } from '../ui/button';
import { Card, CardHeader } from '../ui/card';
import { cx } from '../ui/cx';
import { Skeleton } from '../ui/skeleton';
import { type CsvTable, downloadCsv } from './csv';

/** What every Flow chart shares: the card, its CSV button, the legend, the empty state and the width. */

export const CHART_HEIGHT = 280;
export const AXIS_COLOR = 'var(--color-slate-200)';
export const GRID_COLOR = 'var(--color-slate-100)';
export const tickLabel = { fill: 'var(--color-slate-500)', fontSize: 11 } as const;

export { useWidth } from '../charts';

/** The left axis of a chart that counts bugs: whole numbers only. */
export function CountAxis({ scale, ticks }: { scale: ReturnType<typeof scaleLinear<number>>; ticks: number[] }) {
  return (
    <AxisLeft
      scale={scale}
      tickValues={ticks}
      tickFormat={(v) => String(v)}
      stroke={AXIS_COLOR}
      tickStroke={AXIS_COLOR}
      tickLabelProps={{ ...tickLabel, textAnchor: 'end', dx: -4, dy: 3 }}
    />
  );
}

export function CsvButton({ label, fileName, table }: { label: string; fileName: string; table: CsvTable | null }) {
  return (
    <Button
      variant="secondary"
      size="sm"
      className="shrink-0"
      icon={<Download className="size-4" aria-hidden="true" />}
      disabled={!table}
      onClick={() => table && downloadCsv(fileName, table)}
    >
      {/* Named by its own words plus the chart's (WCAG 2.5.3: the name holds the visible text). */}
      <span>
        <span className="hidden sm:inline">Download </span>CSV<span className="sr-only">: {label}</span>
      </span>
    </Button>
  );
}

export function FlowCard({
  title,
  subtitle,
  csv,
  isLoading,
  isUpdating,
  height = CHART_HEIGHT,
  className,
  children,
}: {
  title: string;
  subtitle?: ReactNode;
  csv: { fileName: string; table: CsvTable | null };
  isLoading: boolean;
  isUpdating?: boolean;
  height?: number;
  className?: string;
  children: ReactNode;
}) {
  return (
    <Card className={cx('min-w-0', className)} role="region" aria-label={title}>
      <CardHeader
        title={title}
        subtitle={subtitle}
        action={<CsvButton label={title} fileName={csv.fileName} table={isLoading ? null : csv.table} />}
      />
      <div
        className={cx('p-4 transition-opacity sm:p-5', isUpdating && 'opacity-60')}
        aria-busy={isUpdating || undefined}
      >
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

/** Shorter than a chart: nothing to show needs no chart's room. */
export function EmptyChart({ text, height = 180 }: { text: string; height?: number }) {
  return (
    <div
      className="flex items-center justify-center rounded-lg border border-dashed border-slate-200 bg-slate-50/60 px-6 text-center text-sm text-slate-500"
      style={{ height }}
    >
      {text}
    </div>
  );
}

export type LegendItem = { label: string; color: string; shape?: 'square' | 'dot' | 'dash' };

export function ChartLegend({ items, className }: { items: LegendItem[]; className?: string }) {
  return (
    <ul className={cx('flex flex-wrap gap-x-4 gap-y-1.5 text-xs text-slate-600', className)}>
      {items.map((item) => (
        <li key={item.label} className="flex items-center gap-1.5">
          {item.shape === 'dash' ? (
            <span className="h-0 w-4 border-t-2 border-dashed" style={{ borderColor: item.color }} aria-hidden="true" />
          ) : (
            <span
              className={cx('size-2.5', item.shape === 'dot' ? 'rounded-full' : 'rounded-sm')}
              style={{ backgroundColor: item.color }}
              aria-hidden="true"
            />
          )}
          {item.label}
        </li>
      ))}
    </ul>
  );
}

/** How many ticks fit: about one per `spacing` pixels, at least 2. */
export function tickCount(length: number, spacing: number, max = 10): number {
  return Math.max(2, Math.min(max, Math.floor(length / spacing)));
}

/** At most `max` of the ticks, evenly spread (d3 may return more than it was asked for). */
export function thinTicks<T>(ticks: T[], max: number): T[] {
  const every = Math.max(1, Math.ceil(ticks.length / Math.max(1, max)));
  return ticks.filter((_, index) => index % every === 0);
}
