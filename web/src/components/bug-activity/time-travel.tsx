import { GitCompareArrows, History, RotateCcw } from 'lucide-react';
import { useId } from 'react';
import { Button } from '../ui/button';
import { cx } from '../ui/cx';
import { controlClass } from '../ui/field';
import { formatExact, fromLocalInput, momentIndex, toLocalInput } from './moment';

/**
 * The time travel's controls: a slider over the moments the bug changed (its right end
 * is now), a date-time picker for any moment in between, and the way back to now.
 */

type TimeTravelProps = {
  /** Oldest first; the last one is the bug as it is now. */
  moments: string[];
  /** A sentence per moment, for the slider's spoken value ("Dana changed Status from …"). */
  describeMoment: (at: string) => string;
  at: string | undefined;
  onAt: (at: string | undefined, options?: { replace?: boolean }) => void;
  isComparing: boolean;
  onToggleCompare: () => void;
};

export function TimeTravelControls({
  moments,
  describeMoment,
  at,
  onAt,
  isComparing,
  onToggleCompare,
}: TimeTravelProps) {
  const sliderId = useId();
  const pickerId = useId();
  const last = moments.length - 1;
  const index = momentIndex(moments, at);
  const isNow = at === undefined;
  const spoken = (i: number) => {
    const moment = moments[i];
    if (!moment) return '';
    const when = i === last ? 'Now' : formatExact(moment);
    return `${when}: ${describeMoment(moment)} (${i + 1} of ${moments.length})`;
  };

  return (
    <div className="space-y-4 rounded-lg border border-slate-200 bg-slate-50 p-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <label htmlFor={sliderId} className="inline-flex items-center gap-2 text-sm font-semibold text-slate-900">
          <History className="size-4 text-brand-600" aria-hidden="true" /> Time travel
        </label>
        <span className="text-xs text-slate-500">
          {moments.length === 1 ? '1 moment so far' : `${moments.length} moments`}
        </span>
      </div>
      <div>
        <input
          id={sliderId}
          type="range"
          min={0}
          max={Math.max(last, 0)}
          step={1}
          value={index}
          disabled={moments.length < 2}
          aria-valuetext={spoken(index)}
          onChange={(event) => {
            const i = Number(event.target.value);
            onAt(i >= last ? undefined : moments[i], { replace: true });
          }}
          className="block h-2 w-full cursor-pointer accent-brand-600 disabled:cursor-not-allowed"
        />
        <div className="mt-1.5 flex justify-between gap-2 text-xs text-slate-500">
          <span>{moments[0] ? formatExact(moments[0]) : ''}</span>
          <span className={cx(isNow && 'font-semibold text-brand-700')}>Now</span>
        </div>
      </div>
      <div className="flex flex-col gap-3 sm:flex-row sm:items-end">
        <div className="min-w-0 space-y-1.5 sm:w-64">
          <label htmlFor={pickerId} className="block text-sm font-medium text-slate-700">
            Show the bug as of
          </label>
          <input
            id={pickerId}
            type="datetime-local"
            step={1}
            value={toLocalInput(at)}
            min={toLocalInput(moments[0])}
            onChange={(event) => {
              const next = fromLocalInput(event.target.value);
              if (next) onAt(next);
            }}
            className={cx(controlClass(), 'h-10')}
          />
        </div>
        <div className="flex flex-wrap gap-2">
          {isNow ? null : (
            <Button variant="secondary" icon={<RotateCcw className="size-4" />} onClick={() => onAt(undefined)}>
              Back to now
            </Button>
          )}
          <Button
            variant={isComparing ? 'primary' : 'outline'}
            icon={<GitCompareArrows className="size-4" />}
            aria-pressed={isComparing}
            onClick={onToggleCompare}
            disabled={moments.length < 2}
          >
            Compare two moments
          </Button>
        </div>
      </div>
    </div>
  );
}
