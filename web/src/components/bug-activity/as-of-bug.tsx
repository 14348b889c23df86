import { Clock, RotateCcw } from 'lucide-react';
import type { ReactNode } from 'react';
import { ApiError, messageOf } from '../../lib/api';
import type { Bug, Role } from '../../lib/types';
import { BugDetailSkeleton } from '../bug-detail-skeleton';
import { Button } from '../ui/button';
import { Spinner } from '../ui/spinner';
import { type BugAsOf, useAtParam, useBugAsOf } from './activity-api';
import { BugActivity } from './bug-activity';
import { formatExact } from './moment';

/**
 * A bug page body that can travel in time: with `?at=` it shows the bug exactly as it
 * was then (the history replayed to that moment), read-only, under a banner with the
 * way back to now; the Activity follows either way.
 */

export function AsOfBanner({
  at,
  bug,
  isLoading,
  problem,
  onBack,
}: {
  at: string;
  bug: BugAsOf | undefined;
  isLoading: boolean;
  problem: string | null;
  onBack: () => void;
}) {
  return (
    <div className="flex flex-col gap-3 rounded-xl border border-amber-200 bg-amber-50 px-4 py-3 text-amber-900 sm:flex-row sm:items-center">
      <Clock className="hidden size-5 shrink-0 text-amber-600 sm:block" aria-hidden="true" />
      <div role="status" className="min-w-0 flex-1 text-sm">
        <p className="font-semibold">
          Viewing as of <time dateTime={at}>{formatExact(at)}</time>
          {isLoading ? (
            <Spinner className="ml-2 size-3.5 align-[-2px] text-amber-600" label="Loading that moment" />
          ) : null}
        </p>
        <p className="text-amber-800">
          {problem ??
            (bug?.deleted
              ? 'Read-only. The bug had been deleted by then.'
              : 'Read-only: the bug exactly as it was at that moment.')}
        </p>
      </div>
      <Button variant="secondary" size="sm" icon={<RotateCcw className="size-4" />} onClick={onBack}>
        Back to now
      </Button>
    </div>
  );
}

function problemOf(error: unknown): string | null {
  if (!error) return null;
  if (error instanceof ApiError && error.status === 404) return 'The bug did not exist yet at that moment.';
  return messageOf(error, 'That moment could not be loaded.');
}

export function AsOfBug({
  bug,
  viewAs,
  children,
}: {
  bug: Bug;
  viewAs: Role;
  /** The page body for a bug; `isPast` when it is the bug of another moment (no actions then). */
  children: (bug: Bug, isPast: boolean) => ReactNode;
}) {
  const [at, setAt] = useAtParam();
  const asOf = useBugAsOf(bug._id, at);
  // A moment before the bug answers 404: keep no earlier moment on screen for it.
  const then = asOf.isError ? undefined : asOf.data;
  let body: ReactNode;
  if (at === undefined) body = children(bug, false);
  else if (then) body = children(then, true);
  else if (asOf.isPending) body = <BugDetailSkeleton />;
  else body = null;

  return (
    <div className="space-y-6">
      {at === undefined ? null : (
        <AsOfBanner
          at={at}
          bug={then}
          isLoading={asOf.isFetching}
          problem={problemOf(asOf.error)}
          onBack={() => setAt(undefined)}
        />
      )}
      {body}
      <BugActivity bugId={bug._id} viewAs={viewAs} />
    </div>
  );
}
