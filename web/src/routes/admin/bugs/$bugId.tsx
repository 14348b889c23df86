import { createFileRoute, type ErrorComponentProps, Link } from '@tanstack/react-router';
import { ArrowLeft } from 'lucide-react';
import { useCallback, useRef, useState } from 'react';
import { validateAtSearch } from '../../../components/bug-activity/at-search';
import { BugActivity } from '../../../components/bug-activity/bug-activity';
import { DeletedBugHistory } from '../../../components/bug-activity/deleted-bug-history';
import { BugCode } from '../../../components/bug-code/bug-code';
import { BugComments } from '../../../components/bug-comments/bug-comments';
import { BugDetail } from '../../../components/bug-detail';
import { BugDetailSkeleton } from '../../../components/bug-detail-skeleton';
import { BugLoadError, bugLoadFailure, useLoadedBug } from '../../../components/bug-load-state';
import { BugLabels } from '../../../components/labels/bug-labels';
import { bugQuery } from '../../../lib/queries';
import { AdminBugExtras, type OwnSave, savedFrom } from '../-components/admin-bug-extras';
import { AdminBugForm } from '../-components/admin-bug-form';
import { ArchiveBugControl } from '../-components/archive-bug';

export const Route = createFileRoute('/admin/bugs/$bugId')({
  validateSearch: validateAtSearch,
  loader: ({ context, params }) => context.queryClient.ensureQueryData(bugQuery(params.bugId)),
  pendingComponent: BugDetailSkeleton,
  errorComponent: AdminBugError,
  component: AdminBugPage,
});

function AdminBugError({ error }: ErrorComponentProps) {
  const { bugId } = Route.useParams();
  const answer = (
    <BugLoadError error={error} backTo="/admin/bugs" backLabel="Back to All Bugs" failedTo="/admin/bugs" />
  );
  // A deleted bug is gone from the lists, not from its history: admins still read that.
  if (bugLoadFailure(error) !== 'notFound') return answer;
  return <DeletedBugHistory bugId={bugId} viewAs="admin" fallback={answer} header={<BackToAllBugs />} />;
}

function BackToAllBugs() {
  return (
    <Link
      to="/admin/bugs"
      className="mb-4 inline-flex items-center gap-1.5 text-sm font-medium text-slate-500 hover:text-slate-900"
    >
      <ArrowLeft className="size-4" /> Back to All Bugs
    </Link>
  );
}

function AdminBugPage() {
  const { bugId } = Route.useParams();
  const { at } = Route.useSearch();
  const bug = useLoadedBug(bugId);
  // A reload after a stale save starts the form again from the bug as it is now.
  const [reloads, setReloads] = useState(0);
  // Steps, links and files saved beside the form, each as version before → after: the form's
  // version follows our own saves, so only someone else's change makes a save stale.
  const ownSaves = useRef(new Map<number, number>()).current;
  const onOwnSave = useCallback((save: OwnSave) => ownSaves.set(save.from, save.to), [ownSaves]);
  return (
    <>
      {/* Another moment is read-only: the detail view of the bug as it was, not the form. */}
      {at ? (
        <>
          <BackToAllBugs />
          <BugDetail bug={bug} viewAs="admin" />
        </>
      ) : (
        <>
          <AdminBugForm
            key={`${bug._id}:${reloads}`}
            bug={bug}
            ownSaves={ownSaves}
            onReloaded={() => setReloads((n) => n + 1)}
            actions={<ArchiveBugControl bug={bug} onSaved={onOwnSave} />}
            labels={<BugLabels bug={bug} className="mt-2" onSaved={savedFrom(bug, onOwnSave)} />}
          />
          <AdminBugExtras bug={bug} onSaved={onOwnSave} />
          <BugCode bug={bug} className="mt-6" />
          <BugActivity bugId={bug._id} viewAs="admin" className="mt-6" />
        </>
      )}
      {/* Outside the switch: travelling in time keeps a half-written comment. */}
      <BugComments bug={bug} viewAs="admin" className="mt-6" />
    </>
  );
}
