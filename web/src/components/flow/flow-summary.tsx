import { CalendarClock, Hourglass, type LucideIcon, RotateCcw, Timer } from 'lucide-react';
import type { ReactNode } from 'react';
import { cx } from '../ui/cx';
import { Skeleton } from '../ui/skeleton';
import { describeRange, formatMoment } from './flow-dates';
import type { FlowSearch } from './flow-search';
import { type FlowViewer, statusNames } from './flow-status';
import type { FlowMetrics } from './flow-types';
import { exactSeconds, formatDuration } from './format-duration';

function plural(count: number, one: string, many: string) {
  return `${count} ${count === 1 ? one : many}`;
}

function SummaryCard({
  title,
  icon: Icon,
  className,
  footer,
  children,
}: {
  title: string;
  icon: LucideIcon;
  className?: string;
  footer: ReactNode;
  children: ReactNode;
}) {
  return (
    <section
      aria-label={title}
      className={cx('flex flex-col rounded-xl border border-slate-200 bg-white p-5 shadow-xs', className)}
    >
      <h2 className="flex items-center gap-2 text-sm font-medium text-slate-500">
        <Icon className="size-4 text-brand-600" aria-hidden="true" />
        {title}
      </h2>
      <div className="mt-2 flex-1">{children}</div>
      <p className="mt-2 text-xs text-slate-500">{footer}</p>
    </section>
  );
}

function Value({ label, seconds, isLarge }: { label: string; seconds: number | null; isLarge?: boolean }) {
  return (
    <div className="min-w-0">
      <dt className="text-xs font-semibold tracking-wide text-slate-500 uppercase">{label}</dt>
      <dd
        className={cx(
          'whitespace-nowrap',
          isLarge ? 'text-xl font-bold text-slate-900 sm:text-2xl' : 'text-lg font-semibold text-slate-800',
        )}
        title={exactSeconds(seconds)}
      >
        {formatDuration(seconds)}
      </dd>
    </div>
  );
}

/** The headline numbers: cycle time percentiles, open bugs' age, reopens, and the moment they are for. */
export function FlowSummary({
  data,
  search,
  isLoading,
  viewAs,
}: {
  data: FlowMetrics | undefined;
  search: FlowSearch;
  isLoading: boolean;
  viewAs: FlowViewer;
}) {
  const names = statusNames(viewAs);
  return (
    <div className="space-y-3">
      <p className="flex flex-wrap items-center gap-x-2 gap-y-1 text-sm text-slate-600" aria-live="polite">
        <CalendarClock className="size-4 shrink-0 text-slate-400" aria-hidden="true" />
        {data ? (
          <>
            <span className="font-semibold text-slate-900" data-testid="flow-as-of">
              As of {formatMoment(data.asOf)}
            </span>
            <span aria-hidden="true">·</span>
            <span>{describeRange(search)}</span>
          </>
        ) : (
          <Skeleton className="h-5 w-64" />
        )}
      </p>
      <div className="grid grid-cols-1 gap-4 sm:grid-cols-2 xl:grid-cols-4">
        <SummaryCard
          title="Cycle time"
          icon={Timer}
          className="sm:col-span-2"
          footer={
            data ? (
              <span data-testid="flow-cycle-count">
                From first {names.Open} to last {names.Closed}, over{' '}
                {plural(
                  data.cycleTime.count,
                  `bug ${names.Closed.toLowerCase()}`,
                  `bugs ${names.Closed.toLowerCase()}`,
                )}{' '}
                in the range
              </span>
            ) : (
              '\u00a0'
            )
          }
        >
          {isLoading || !data ? (
            <Skeleton className="h-12 w-full" />
          ) : (
            <dl className="grid grid-cols-3 gap-3">
              <Value label="p50" seconds={data.cycleTime.p50} isLarge />
              <Value label="p85" seconds={data.cycleTime.p85} isLarge />
              <Value label="p95" seconds={data.cycleTime.p95} isLarge />
            </dl>
          )}
        </SummaryCard>
        <SummaryCard
          title="Open bugs' age"
          icon={Hourglass}
          footer={
            data ? (
              <>
                {plural(data.openAge.count, 'bug', 'bugs')} not {names.Closed.toLowerCase()}
                {data.openAge.p85 !== null ? (
                  <>
                    {' '}
                    <span className="whitespace-nowrap" title={exactSeconds(data.openAge.p85)}>
                      · p85 {formatDuration(data.openAge.p85)}
                    </span>
                  </>
                ) : null}
              </>
            ) : (
              '\u00a0'
            )
          }
        >
          {isLoading || !data ? (
            <Skeleton className="h-12 w-full" />
          ) : (
            <dl>
              <Value label="p50" seconds={data.openAge.p50} isLarge />
            </dl>
          )}
        </SummaryCard>
        <SummaryCard title="Reopened" icon={RotateCcw} footer={`Moves out of ${names.Closed} in the range`}>
          {isLoading || !data ? (
            <Skeleton className="h-12 w-full" />
          ) : (
            <p className="text-2xl font-bold text-slate-900">{data.reopened}</p>
          )}
        </SummaryCard>
      </div>
    </div>
  );
}
