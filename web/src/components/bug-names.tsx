import type { Bug } from '../lib/types';
import { cx } from './ui/cx';

/**
 * Above a bug's title: its key (`WEB-7`, api.md "Projects") and its installation-wide number
 * (`#42`), each named for screen readers.
 */
export function BugNames({ bug, className }: { bug: Pick<Bug, 'key' | 'number'>; className?: string }) {
  if (!bug.key && !bug.number) return null;
  return (
    <p className={cx('flex flex-wrap gap-x-2 font-mono text-sm text-slate-500', className)}>
      {bug.key ? (
        <span>
          <span className="sr-only">Bug key </span>
          {bug.key}
        </span>
      ) : null}
      {bug.number ? (
        <span>
          <span className="sr-only">Bug number </span>#{bug.number}
        </span>
      ) : null}
    </p>
  );
}
