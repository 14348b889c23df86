import { bugMessages, bugStatuses } from '@bugtrail/domain/vocabulary';
import { useQuery } from '@tanstack/react-query';
import { createFileRoute, type ErrorComponentProps, Link } from '@tanstack/react-router';
import { ArrowLeft, RefreshCw } from 'lucide-react';
import { type KeyboardEvent, useEffect, useState } from 'react';
import { validateAtSearch } from '../../../components/bug-activity/at-search';
import { BugComments } from '../../../components/bug-comments/bug-comments';
import { BugDetail } from '../../../components/bug-detail';
import { BugDetailSkeleton } from '../../../components/bug-detail-skeleton';
import { BugLoadError, useLoadedBug } from '../../../components/bug-load-state';
import { Button, buttonClass } from '../../../components/ui/button';
import { cx } from '../../../components/ui/cx';
import { controlClass } from '../../../components/ui/field';
import { statusLabel } from '../../../lib/format';
import { toggleChecklistItem, useUpdateChecklist, useUpdateStatus } from '../../../lib/mutations';
import { bugQuery } from '../../../lib/queries';
import { profileQuery } from '../../../lib/session';
import type { BugStatus } from '../../../lib/types';

export const Route = createFileRoute('/developer/assigned-bugs/$bugId')({
  validateSearch: validateAtSearch,
  loader: ({ context, params }) => context.queryClient.ensureQueryData(bugQuery(params.bugId)),
  pendingComponent: BugDetailSkeleton,
  errorComponent: AssignedBugError,
  component: AssignedBugPage,
});

/** The developer's detail answers a refusal and a missing bug with one sentence (spec section 8). */
const unavailable = { forbidden: bugMessages.notFoundOrForbidden, notFound: bugMessages.notFoundOrForbidden };

function AssignedBugError({ error }: ErrorComponentProps) {
  return (
    <BugLoadError
      error={error}
      backTo="/developer/assigned-bugs"
      backLabel="Back to Assigned Bugs"
      messages={unavailable}
    />
  );
}

function AssignedBugPage() {
  const { bugId } = Route.useParams();
  const bug = useLoadedBug(bugId);
  const { data: user } = useQuery(profileQuery());
  const updateChecklist = useUpdateChecklist(user ?? { _id: '', name: '' });
  return (
    <>
      <Link
        to="/developer/assigned-bugs"
        className="mb-4 inline-flex items-center gap-1.5 text-sm font-medium text-slate-500 hover:text-slate-900"
      >
        <ArrowLeft className="size-4" /> Back to Assigned Bugs
      </Link>
      <BugDetail
        bug={bug}
        viewAs="developer"
        showCompletion
        // Act where you read (issue 16): status and steps change here; the spec's Update Status page still works.
        onToggleItem={
          user
            ? (index) =>
                updateChecklist.mutate({
                  id: bug._id,
                  checklist: toggleChecklistItem(bug.checklist, index, user, new Date()),
                })
            : undefined
        }
        actions={
          <>
            <StatusPicker bugId={bug._id} status={bug.status} />
            <Link to="/developer/update-bugs" search={{ open: bug._id }} className={buttonClass('secondary')}>
              <RefreshCw className="size-4" /> Update Status
            </Link>
          </>
        }
      />
      <BugComments bug={bug} viewAs="developer" className="mt-6" />
    </>
  );
}

/**
 * The status to move the bug to, saved only when the developer says so (the Save button,
 * or Enter on the list): arrow keys on a closed select change its value at every step, and
 * each step saved would be a status the bug never meant to pass through.
 */
function StatusPicker({ bugId, status }: { bugId: string; status: BugStatus }) {
  const updateStatus = useUpdateStatus();
  const [draft, setDraft] = useState<BugStatus>(status);
  // Someone else's change (live) or our own save moves the starting point.
  useEffect(() => setDraft(status), [status]);
  const isChanged = draft !== status;
  const save = () => {
    if (isChanged && !updateStatus.isPending) updateStatus.mutate({ id: bugId, status: draft });
  };
  const saveOnEnter = (event: KeyboardEvent<HTMLSelectElement>) => {
    if (event.key !== 'Enter') return;
    event.preventDefault();
    save();
  };
  return (
    <form
      className="flex flex-wrap items-center gap-2"
      onSubmit={(event) => {
        event.preventDefault();
        save();
      }}
    >
      <label className="flex items-center gap-2 text-sm text-slate-600">
        <span>Status</span>
        <select
          aria-label="Change status"
          value={draft}
          onChange={(event) => setDraft(event.target.value as BugStatus)}
          onKeyDown={saveOnEnter}
          className={cx(controlClass(), 'h-10 w-40')}
        >
          {bugStatuses.map((option) => (
            <option key={option} value={option}>
              {statusLabel(option, 'developer')}
            </option>
          ))}
        </select>
      </label>
      <Button
        type="submit"
        variant={isChanged ? 'primary' : 'secondary'}
        disabled={!isChanged}
        isLoading={updateStatus.isPending}
      >
        Save status
      </Button>
    </form>
  );
}
