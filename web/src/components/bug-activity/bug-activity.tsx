import { useQuery } from '@tanstack/react-query';
import { RefreshCw, ShieldAlert, ShieldCheck } from 'lucide-react';
import { useId, useMemo, useState } from 'react';
import { messageOf } from '../../lib/api';
import { scrollBehavior } from '../../lib/motion';
import { teamQuery } from '../../lib/queries';
import type { Role, UserRef } from '../../lib/types';
import { Button } from '../ui/button';
import { Card } from '../ui/card';
import { cx } from '../ui/cx';
import { Skeleton } from '../ui/skeleton';
import { bugHistoryQuery, type HistoryIntegrity, useAtParam } from './activity-api';
import { ActivityTimeline } from './activity-timeline';
import { CompareMoments } from './compare-moments';
import { activityRows, changeMoments } from './describe-event';
import { TimeTravelControls } from './time-travel';

/**
 * The bug page's Activity: the event stream's integrity, the time travel (slider,
 * picker, compare) and the timeline in plain words. Read-only, for everyone who may
 * view the bug; it refetches when the bug's live topic fires (its query sits under
 * `queryKeys.bug.detail(id)`).
 */

export function IntegrityNote({ integrity }: { integrity: HistoryIntegrity | undefined }) {
  if (!integrity) return null;
  if (integrity.ok) {
    return (
      <span className="inline-flex items-center gap-1.5 text-sm text-lime-700">
        <ShieldCheck className="size-4 shrink-0" aria-hidden="true" />
        History intact: {integrity.events} {integrity.events === 1 ? 'event' : 'events'}, chain verified
      </span>
    );
  }
  return (
    <span className="inline-flex items-center gap-1.5 text-sm font-semibold text-rose-700">
      <ShieldAlert className="size-4 shrink-0" aria-hidden="true" />
      History broken at revision {integrity.brokenAt ?? '?'}
    </span>
  );
}

/** Everyone's picture, when the directory can be read; initials otherwise. */
export function usePeople(): ReadonlyMap<string, UserRef> {
  const { data } = useQuery({ ...teamQuery(), staleTime: 5 * 60_000 });
  return useMemo(() => new Map((data ?? []).map((user) => [user._id, user as UserRef])), [data]);
}

export function BugActivity({ bugId, viewAs, className }: { bugId: string; viewAs: Role; className?: string }) {
  const headingId = useId();
  const history = useQuery(bugHistoryQuery(bugId));
  const [at, setAt] = useAtParam();
  const [isComparing, setComparing] = useState(false);
  const people = usePeople();
  const events = history.data?.events;
  const rows = useMemo(() => activityRows(events ?? [], viewAs), [events, viewAs]);
  const moments = useMemo(() => changeMoments(events ?? []), [events]);
  const describeMoment = (moment: string) => {
    const row = [...rows].reverse().find((r) => r.at === moment) ?? rows.find((r) => r.at === moment);
    return row ? `${row.actor?.name ?? 'System'} ${row.summary}${row.rule ? ` by rule ${row.rule.name}` : ''}` : '';
  };
  const integrity = history.data?.integrity;

  return (
    <Card role="region" aria-labelledby={headingId} className={cx('min-w-0', className)}>
      <div className="flex flex-col gap-1 border-b border-slate-100 px-5 py-4 sm:flex-row sm:items-center sm:justify-between sm:gap-3">
        <h2 id={headingId} className="text-base font-semibold text-slate-900">
          Activity
        </h2>
        <IntegrityNote integrity={integrity} />
      </div>
      <div className="space-y-5 p-5">
        {history.isPending ? (
          <div className="space-y-3" aria-busy="true">
            <Skeleton className="h-24 rounded-lg" />
            <Skeleton className="h-10 rounded-lg" />
            <Skeleton className="h-10 rounded-lg" />
          </div>
        ) : history.isError && !history.data ? (
          <div className="flex flex-wrap items-center gap-3 text-sm text-slate-600">
            <p>{messageOf(history.error, 'The activity could not be loaded')}</p>
            <Button
              variant="secondary"
              size="sm"
              icon={<RefreshCw className="size-4" />}
              onClick={() => void history.refetch()}
            >
              Try again
            </Button>
          </div>
        ) : (
          <>
            <TimeTravelControls
              moments={moments}
              describeMoment={describeMoment}
              at={at}
              onAt={setAt}
              isComparing={isComparing}
              onToggleCompare={() => setComparing((open) => !open)}
            />
            {isComparing && moments.length > 1 ? (
              <CompareMoments bugId={bugId} moments={moments} describeMoment={describeMoment} viewAs={viewAs} />
            ) : null}
            <ActivityTimeline
              rows={rows}
              viewAs={viewAs}
              people={people}
              at={at}
              brokenAt={integrity && !integrity.ok ? integrity.brokenAt : null}
              onShowMoment={(moment) => {
                setAt(moment);
                window.scrollTo({ top: 0, behavior: scrollBehavior() });
              }}
            />
          </>
        )}
      </div>
    </Card>
  );
}
