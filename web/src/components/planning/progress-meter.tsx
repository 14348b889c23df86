import { cx } from '../ui/cx';

/**
 * How much of something is done ("2 of 5 done"), as words and a bar: sub-bugs, a milestone's
 * bugs. The bar is a progressbar named `label`, its value the share done.
 */
export function ProgressMeter({
  done,
  total,
  label,
  className,
}: {
  done: number;
  total: number;
  label: string;
  className?: string;
}) {
  const percent = total > 0 ? Math.round((done / total) * 100) : 0;
  return (
    <div className={cx('flex min-w-0 items-center gap-3', className)}>
      <div
        className="h-2 min-w-16 flex-1 overflow-hidden rounded-full bg-slate-100"
        role="progressbar"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        aria-valuetext={`${done} of ${total} done`}
      >
        <div className="h-full rounded-full bg-lime-600 transition-all" style={{ width: `${percent}%` }} />
      </div>
      <span className="shrink-0 text-xs font-medium text-slate-600 tabular-nums">{percent}%</span>
    </div>
  );
}
