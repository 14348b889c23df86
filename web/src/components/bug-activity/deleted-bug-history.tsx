import { useQuery } from '@tanstack/react-query';
import { Trash2 } from 'lucide-react';
import type { ReactNode } from 'react';
import type { Role } from '../../lib/types';
import { BugDetail } from '../bug-detail';
import { BugDetailSkeleton } from '../bug-detail-skeleton';
import { bugAsOfQuery, bugHistoryQuery } from './activity-api';
import { formatExact } from './moment';

/**
 * A deleted bug, for those who may still read its history (admins; auditors): the bug
 * as it was when deleted, read-only, with its Activity and time travel. Anything else
 * (no such bug, no right to its history) shows `fallback`, the page's usual answer.
 */
export function DeletedBugHistory({
  bugId,
  viewAs,
  fallback,
  header,
}: {
  bugId: string;
  viewAs: Role;
  fallback: ReactNode;
  /** Shown above the bug when there is one to show (the page's way back). */
  header?: ReactNode;
}) {
  const history = useQuery(bugHistoryQuery(bugId));
  const deletion = history.data?.events.findLast((event) => event.type === 'BugDeleted');
  const final = useQuery({ ...bugAsOfQuery(bugId, deletion?.at ?? ''), enabled: deletion !== undefined });

  if (history.isPending) return <BugDetailSkeleton />;
  if (!deletion) return fallback;
  if (final.isPending) return <BugDetailSkeleton />;
  if (!final.data) return fallback;
  return (
    <>
      {header}
      <div className="space-y-6">
        <div
          role="alert"
          className="flex items-start gap-3 rounded-xl border border-rose-200 bg-rose-50 px-4 py-3 text-sm text-rose-800"
        >
          <Trash2 className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
          <p>
            <span className="font-semibold">This bug was deleted</span>
            {deletion.actor ? ` by ${deletion.actor.name}` : ''} on{' '}
            <time dateTime={deletion.at}>{formatExact(deletion.at)}</time>. Its history stays readable: below is the bug
            as it was then.
          </p>
        </div>
        <BugDetail bug={final.data} viewAs={viewAs} />
      </div>
    </>
  );
}
