import { Link } from '@tanstack/react-router';
import { Copy, Lock } from 'lucide-react';
import { Fragment } from 'react';
import { linkedName, openBlockers, originalOf } from '../../lib/planning';
import type { Bug } from '../../lib/types';
import { cx } from '../ui/cx';

const linkClass = 'font-mono font-semibold underline underline-offset-2 hover:decoration-2';

/**
 * Beside a bug's status: "Blocked by WEB-3" while a bug that blocks it is open (it cannot be
 * closed until then), and "Duplicate of WEB-2" linking the original (api.md "Relations and sub-bugs").
 */
export function PlanningNotices({ bug, className }: { bug: Bug; className?: string }) {
  const blockers = openBlockers(bug);
  const original = originalOf(bug);
  if (blockers.length === 0 && !original) return null;
  return (
    <div className={cx('flex min-w-0 flex-col gap-2', className)}>
      {blockers.length > 0 ? (
        <p
          className="flex min-w-0 items-start gap-2 rounded-lg bg-amber-50 px-3 py-2 text-sm text-amber-900 ring-1 ring-amber-200 ring-inset"
          data-blocked-notice
        >
          <Lock className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
          <span className="min-w-0">
            Blocked by{' '}
            {blockers.map((blocker, index) => (
              <Fragment key={blocker._id}>
                {index > 0 ? (index === blockers.length - 1 ? ' and ' : ', ') : null}
                <Link to="/bugs/$number" params={{ number: linkedName(blocker) }} className={linkClass}>
                  {linkedName(blocker)}
                </Link>
              </Fragment>
            ))}
            <span className="text-amber-800">
              {blockers.length === 1
                ? ': it must be closed before this one.'
                : ': they must be closed before this one.'}
            </span>
          </span>
        </p>
      ) : null}
      {original ? (
        <p className="flex min-w-0 items-start gap-2 rounded-lg bg-slate-100 px-3 py-2 text-sm text-slate-800 ring-1 ring-slate-200 ring-inset">
          <Copy className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
          <span className="min-w-0 [overflow-wrap:anywhere]">
            Duplicate of{' '}
            <Link to="/bugs/$number" params={{ number: linkedName(original) }} className={linkClass}>
              {linkedName(original)}
            </Link>{' '}
            <span className="text-slate-600">{original.title}</span>
          </span>
        </p>
      ) : null}
    </div>
  );
}
