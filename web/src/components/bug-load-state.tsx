import { bugMessages } from '@bugtrail/domain/vocabulary';
import { useQueryErrorResetBoundary, useSuspenseQuery } from '@tanstack/react-query';
import { Link, useNavigate, useRouter } from '@tanstack/react-router';
import { RefreshCw, SearchX, ShieldAlert, TriangleAlert } from 'lucide-react';
import { useEffect, useRef } from 'react';
import { ApiError } from '../lib/api';
import { notify } from '../lib/notify';
import { bugQuery } from '../lib/queries';
import type { Bug } from '../lib/types';
import { Button, buttonClass } from './ui/button';
import { Card } from './ui/card';

/** The spec's toast (section 8) when a bug page cannot load for any other reason. */
export const LOAD_BUG_FAILED = 'Failed to load bug details';

/** Why a bug did not load: the server's answer (403, 404), the session ending (401), or anything else. */
export type BugLoadFailure = 'forbidden' | 'notFound' | 'signedOut' | 'failed';

export function bugLoadFailure(error: unknown): BugLoadFailure {
  if (!(error instanceof ApiError)) return 'failed';
  if (error.status === 403) return 'forbidden';
  if (error.status === 404) return 'notFound';
  if (error.status === 401) return 'signedOut';
  return 'failed';
}

/**
 * The bug a route's loader has put in the cache, kept fresh by the live stream. A
 * refetch that finds the bug deleted or out of reach (404, 403) goes to the route's
 * errorComponent, as a first load would; other refetch failures keep what is shown.
 */
export function useLoadedBug(id: string): Bug {
  const { data, error } = useSuspenseQuery(bugQuery(id));
  const failure = bugLoadFailure(error);
  if (failure === 'forbidden' || failure === 'notFound') throw error;
  return data;
}

const noticeIcons = { forbidden: ShieldAlert, notFound: SearchX, failed: TriangleAlert } as const;

export function InlineNotice({
  message,
  backTo,
  backLabel,
  kind = 'forbidden',
  onRetry,
}: {
  message: string;
  backTo: string;
  backLabel: string;
  kind?: keyof typeof noticeIcons;
  onRetry?: () => void;
}) {
  const Icon = noticeIcons[kind];
  return (
    <Card className="mx-auto max-w-xl p-10 text-center">
      <span className="inline-flex rounded-full bg-rose-50 p-3 text-rose-600">
        <Icon className="size-6" aria-hidden="true" />
      </span>
      <p role="alert" className="mt-4 text-base font-semibold text-slate-900">
        {message}
      </p>
      <div className="mt-6 flex flex-col justify-center gap-2 sm:flex-row">
        {onRetry ? (
          <Button variant="primary" onClick={onRetry} icon={<RefreshCw className="size-4" />}>
            Try again
          </Button>
        ) : null}
        <Link to={backTo} className={buttonClass('secondary')}>
          {backLabel}
        </Link>
      </div>
    </Card>
  );
}

export type BugLoadErrorProps = {
  error: unknown;
  backTo: string;
  backLabel: string;
  /** The sentence for a 403 and a 404; by default the spec's two. */
  messages?: Partial<Record<'forbidden' | 'notFound', string>>;
  /**
   * Where the page goes, after the 'Failed to load bug details' toast, when loading
   * failed for another reason (admin: the bug list, tester: the dashboard). Without
   * it the sentence shows in place with Try again.
   */
  failedTo?: string;
};

/**
 * What a bug route's errorComponent shows: the spec's sentence for a refusal (403) or
 * a missing bug (404) in place; any other failure as the spec's toast and a way on.
 */
export function BugLoadError({ error, backTo, backLabel, messages, failedTo }: BugLoadErrorProps) {
  const router = useRouter();
  const navigate = useNavigate();
  const queryErrorResetBoundary = useQueryErrorResetBoundary();
  const failure = bugLoadFailure(error);
  const isLeaving = failure === 'signedOut' || (failure === 'failed' && failedTo !== undefined);
  // Once per failure, also under StrictMode's double effects.
  const hasReacted = useRef(false);

  useEffect(() => {
    // A refetch that threw in render must not throw again when the route retries.
    queryErrorResetBoundary.reset();
  }, [queryErrorResetBoundary]);

  useEffect(() => {
    // A 401 already ends the session and goes to /login (api.ts); nothing to add.
    if (hasReacted.current || failure !== 'failed' || failedTo === undefined) return;
    hasReacted.current = true;
    notify.error(LOAD_BUG_FAILED);
    void navigate({ to: failedTo, replace: true });
  }, [failure, failedTo, navigate]);

  if (isLeaving) return null;
  if (failure === 'forbidden' || failure === 'notFound') {
    const defaults = { forbidden: bugMessages.noPermissionToView, notFound: bugMessages.notFound };
    return (
      <InlineNotice
        message={messages?.[failure] ?? defaults[failure]}
        backTo={backTo}
        backLabel={backLabel}
        kind={failure}
      />
    );
  }
  return (
    <InlineNotice
      message={LOAD_BUG_FAILED}
      backTo={backTo}
      backLabel={backLabel}
      kind="failed"
      onRetry={() => void router.invalidate()}
    />
  );
}
