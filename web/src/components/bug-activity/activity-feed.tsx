import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { RefreshCw } from 'lucide-react';
import { useMemo } from 'react';
import { api, messageOf } from '../../lib/api';
import { queryKeys } from '../../lib/query-keys';
import type { Role } from '../../lib/types';
import { Avatar } from '../ui/avatar';
import { Button } from '../ui/button';
import { Card, CardHeader } from '../ui/card';
import { cx } from '../ui/cx';
import { Skeleton } from '../ui/skeleton';
import type { HistoryEntry } from './activity-api';
import { usePeople } from './bug-activity';
import { activityRows } from './describe-event';
import { formatExact, formatRelative, useNow } from './moment';

/**
 * GET /api/audit/activity: the newest changes across all bugs, in the words of the bug
 * page's timeline, each linked to its bug as of that moment. Under queryKeys.dashboard.all, so
 * every bug's live topic refreshes it.
 */

type FeedEntry = HistoryEntry & { position: string; bug: { _id: string; title: string; deleted: boolean } };
type FeedPage = { entries: FeedEntry[]; next: string | null };

const PAGE = 20;

const activityFeedQuery = () =>
  infiniteQueryOptions({
    queryKey: queryKeys.dashboard.auditActivity,
    queryFn: ({ pageParam, signal }) =>
      api<FeedPage>(
        `/api/audit/activity?${new URLSearchParams({ limit: String(PAGE), ...(pageParam ? { before: pageParam } : {}) })}`,
        { signal },
      ),
    initialPageParam: '',
    getNextPageParam: (last) => last.next ?? undefined,
    retry: false,
  });

export function ActivityFeedCard({
  viewAs,
  className,
}: {
  viewAs: Extract<Role, 'admin' | 'auditor'>;
  className?: string;
}) {
  const feed = useInfiniteQuery(activityFeedQuery());
  const people = usePeople();
  const now = useNow();
  const entries = useMemo(() => feed.data?.pages.flatMap((p) => p.entries) ?? [], [feed.data]);
  // activityRows reads oldest first; the feed shows newest first.
  const rows = useMemo(() => {
    const oldestFirst = [...entries].reverse();
    const bugOf = new Map(oldestFirst.map((e) => [e._id, e.bug]));
    return activityRows(oldestFirst, viewAs)
      .reverse()
      .map((row) => ({ ...row, bug: bugOf.get(row.id)! }));
  }, [entries, viewAs]);
  const bugPath = viewAs === 'auditor' ? '/auditor/bugs/$bugId' : '/admin/bugs/$bugId';

  return (
    <Card className={cx('min-w-0', className)}>
      <CardHeader title="Recent Activity" subtitle="Every change to every bug, newest first." />
      <div className="p-5">
        {feed.isPending ? (
          <div className="space-y-4" aria-busy="true">
            {[0, 1, 2, 3].map((i) => (
              <Skeleton key={i} className="h-10 rounded-lg" />
            ))}
          </div>
        ) : feed.isError && !feed.data ? (
          <div className="flex flex-wrap items-center gap-3 text-sm text-slate-600">
            <p>{messageOf(feed.error, 'The activity could not be loaded')}</p>
            <Button
              variant="secondary"
              size="sm"
              icon={<RefreshCw className="size-4" />}
              onClick={() => void feed.refetch()}
            >
              Try again
            </Button>
          </div>
        ) : rows.length === 0 ? (
          <p className="text-sm text-slate-500">No activity yet</p>
        ) : (
          <>
            <ol className="divide-y divide-slate-100" aria-label="Recent activity">
              {rows.map((row) => {
                const actor = row.actor ? (people.get(row.actor._id) ?? row.actor) : { name: 'System' };
                return (
                  <li key={row.id} className="flex gap-3 py-3 first:pt-0 last:pb-0">
                    <Avatar user={actor} size="sm" />
                    <div className="min-w-0 flex-1">
                      <p className="text-sm break-words text-slate-700">
                        <span className="font-semibold text-slate-900">{actor.name}</span> {row.summary}
                        {row.rule ? <span className="text-slate-500"> by rule {row.rule.name}</span> : null}
                      </p>
                      <p className="mt-0.5 flex flex-wrap items-center gap-x-2 text-xs text-slate-500">
                        <Link
                          to={bugPath}
                          params={{ bugId: row.bug._id }}
                          className="max-w-full truncate font-medium text-brand-700 hover:underline"
                        >
                          {row.bug.title || 'Untitled bug'}
                        </Link>
                        {row.bug.deleted ? <span className="text-rose-700">(deleted)</span> : null}
                        <span aria-hidden="true">·</span>
                        <Link
                          to={bugPath}
                          params={{ bugId: row.bug._id }}
                          search={{ at: row.at }}
                          title={`Show the bug as of ${formatExact(row.at)}`}
                          className="hover:underline"
                        >
                          <time dateTime={row.at}>{formatRelative(row.at, now)}</time>
                        </Link>
                      </p>
                    </div>
                  </li>
                );
              })}
            </ol>
            {feed.hasNextPage ? (
              <Button
                variant="secondary"
                size="sm"
                className="mt-4"
                isLoading={feed.isFetchingNextPage}
                onClick={() => void feed.fetchNextPage()}
              >
                Show older activity
              </Button>
            ) : null}
          </>
        )}
      </div>
    </Card>
  );
}
