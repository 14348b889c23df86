import { ShieldAlert } from 'lucide-react';
import { useState } from 'react';
import type { Role, UserRef } from '../../lib/types';
import { Avatar } from '../ui/avatar';
import { cx } from '../ui/cx';
import type { ActivityRow } from './describe-event';
import { FieldChangeView } from './field-change';
import { formatExact, formatRelative, useNow } from './moment';

/** Rows shown before "Show older": a long story opens on its latest chapter. */
const FIRST_PAGE = 15;

type TimelineProps = {
  /** Oldest first, as activityRows gives them; shown newest first. */
  rows: ActivityRow[];
  viewAs: Role;
  /** People with their pictures, to put faces on the actors. */
  people: ReadonlyMap<string, UserRef>;
  /** The moment the page shows, when travelling: later rows are dimmed. */
  at: string | undefined;
  /** The first revision whose hash does not match, when the chain is broken. */
  brokenAt: number | null;
  onShowMoment: (at: string) => void;
};

/** The newest moment is the bug as it is now: its rows need no way there. */
const isNewestMoment = (rows: ActivityRow[], at: string) => rows.at(-1)?.at === at;

export function ActivityTimeline({ rows, viewAs, people, at, brokenAt, onShowMoment }: TimelineProps) {
  const now = useNow();
  const [isAllShown, setAllShown] = useState(false);
  const newestFirst = [...rows].reverse();
  const shown = isAllShown ? newestFirst : newestFirst.slice(0, FIRST_PAGE);
  const limit = at === undefined ? Number.POSITIVE_INFINITY : Date.parse(at);
  // The row the page stands on while travelling: the newest at or before the moment.
  const current = at === undefined ? undefined : newestFirst.find((row) => Date.parse(row.at) <= limit)?.id;

  if (rows.length === 0) return <p className="text-sm text-slate-500">No activity yet</p>;
  return (
    <div>
      <ol className="space-y-0">
        {shown.map((row, index) => {
          const actor = row.actor ? (people.get(row.actor._id) ?? row.actor) : { name: 'System' };
          const isLater = Date.parse(row.at) > limit;
          const isBroken = brokenAt !== null && row.revisions.includes(brokenAt);
          const isLast = index === shown.length - 1;
          return (
            <li key={row.id} className={cx('relative flex gap-3 pb-5', isLast && 'pb-0')}>
              {isLast ? null : (
                <span
                  className="absolute top-9 bottom-1 left-4 w-px -translate-x-1/2 bg-slate-200"
                  aria-hidden="true"
                />
              )}
              {/* Later than the moment shown: muted, yet readable (no opacity: its text must keep AA contrast). */}
              <Avatar user={actor} size="sm" className={cx(isLater && 'grayscale')} />
              <div
                className={cx(
                  'min-w-0 flex-1 rounded-lg px-3 py-1.5 -my-1.5',
                  row.id === current && 'bg-amber-50 ring-1 ring-amber-200',
                  isBroken && 'bg-rose-50 ring-1 ring-rose-300',
                )}
                data-later={isLater || undefined}
                data-revision={row.revisions[0]}
              >
                <p className={cx('text-sm break-words', isLater ? 'text-slate-500 italic' : 'text-slate-700')}>
                  <span className={cx('font-semibold', isLater ? 'text-slate-600' : 'text-slate-900')}>
                    {actor.name}
                  </span>{' '}
                  {row.summary}
                  {row.rule ? <span className="text-slate-500"> by rule {row.rule.name}</span> : null}
                </p>
                <p className="mt-0.5 flex flex-wrap items-center gap-x-2 text-xs text-slate-500">
                  <time dateTime={row.at} title={formatExact(row.at)}>
                    {formatRelative(row.at, now)}
                  </time>
                  {isNewestMoment(rows, row.at) ? null : (
                    <>
                      <span aria-hidden="true">·</span>
                      <button
                        type="button"
                        className="font-medium text-brand-700 hover:underline"
                        title={`Show the bug as of ${formatExact(row.at)}`}
                        onClick={() => onShowMoment(row.at)}
                      >
                        Show then
                      </button>
                    </>
                  )}
                </p>
                {isBroken ? (
                  <p className="mt-1 inline-flex items-center gap-1 text-xs font-medium text-rose-700">
                    <ShieldAlert className="size-3.5" aria-hidden="true" /> This event does not match its recorded hash
                  </p>
                ) : null}
                {row.details.length > 0 ? (
                  <dl className="mt-2 space-y-2 rounded-lg border border-slate-100 bg-slate-50 p-3">
                    {row.details.map((change) => (
                      <FieldChangeView key={change.field} change={change} viewAs={viewAs} />
                    ))}
                  </dl>
                ) : null}
              </div>
            </li>
          );
        })}
      </ol>
      {newestFirst.length > shown.length ? (
        <button
          type="button"
          className="mt-4 text-sm font-medium text-brand-700 hover:underline"
          onClick={() => setAllShown(true)}
        >
          Show {newestFirst.length - shown.length} older {newestFirst.length - shown.length === 1 ? 'event' : 'events'}
        </button>
      ) : null}
    </div>
  );
}
