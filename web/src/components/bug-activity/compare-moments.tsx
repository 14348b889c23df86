import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { messageOf } from '../../lib/api';
import type { Role } from '../../lib/types';
import { cx } from '../ui/cx';
import { controlClass } from '../ui/field';
import { Spinner } from '../ui/spinner';
import { bugComparisonQuery } from './activity-api';
import { FieldChangeView } from './field-change';
import { formatExact } from './moment';

/** Two moments of the bug side by side: only the fields that differ, old value then new. */

type CompareProps = {
  bugId: string;
  /** Oldest first. */
  moments: string[];
  describeMoment: (at: string) => string;
  viewAs: Role;
};

const shorten = (text: string, max = 70) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

export function CompareMoments({ bugId, moments, describeMoment, viewAs }: CompareProps) {
  const fromId = useId();
  const toId = useId();
  const resultId = useId();
  const [from, setFrom] = useState(() => moments[0] ?? '');
  const [to, setTo] = useState(() => moments.at(-1) ?? '');
  const comparison = useQuery({ ...bugComparisonQuery(bugId, from, to), enabled: !!from && !!to });
  const last = moments.length - 1;
  const option = (moment: string, index: number) => (
    <option key={moment} value={moment}>
      {index === last ? 'Now' : formatExact(moment)} · {shorten(describeMoment(moment))}
    </option>
  );

  return (
    <section aria-labelledby={resultId} className="space-y-4 rounded-lg border border-brand-100 bg-brand-50/40 p-4">
      <h3 id={resultId} className="text-sm font-semibold text-slate-900">
        What changed between two moments
      </h3>
      <div className="grid gap-3 sm:grid-cols-2">
        <div className="min-w-0 space-y-1.5">
          <label htmlFor={fromId} className="block text-sm font-medium text-slate-700">
            First moment
          </label>
          <select
            id={fromId}
            value={from}
            onChange={(event) => setFrom(event.target.value)}
            className={cx(controlClass(), 'h-10 pr-8')}
          >
            {moments.map(option)}
          </select>
        </div>
        <div className="min-w-0 space-y-1.5">
          <label htmlFor={toId} className="block text-sm font-medium text-slate-700">
            Second moment
          </label>
          <select
            id={toId}
            value={to}
            onChange={(event) => setTo(event.target.value)}
            className={cx(controlClass(), 'h-10 pr-8')}
          >
            {moments.map(option)}
          </select>
        </div>
      </div>
      <div aria-live="polite" aria-busy={comparison.isFetching || undefined}>
        {comparison.isPending ? (
          <p className="inline-flex items-center gap-2 text-sm text-slate-500">
            <Spinner className="size-4" label="Comparing" /> Comparing…
          </p>
        ) : comparison.isError ? (
          <p className="text-sm text-rose-700">
            {messageOf(comparison.error, 'The two moments could not be compared')}
          </p>
        ) : comparison.data.changes.length === 0 ? (
          <p className="text-sm text-slate-600">Nothing differs between these two moments.</p>
        ) : (
          <>
            <p className="mb-3 text-sm text-slate-600">
              {comparison.data.changes.length === 1
                ? '1 field differs'
                : `${comparison.data.changes.length} fields differ`}{' '}
              from {from === moments[last] ? 'now' : formatExact(from)} to{' '}
              {to === moments[last] ? 'now' : formatExact(to)}:
            </p>
            <dl className="space-y-3 rounded-lg border border-slate-200 bg-white p-3">
              {comparison.data.changes.map((change) => (
                <FieldChangeView key={change.field} change={change} viewAs={viewAs} />
              ))}
            </dl>
          </>
        )}
      </div>
    </section>
  );
}
