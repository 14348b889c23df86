import { createFileRoute, type ErrorComponentProps, Link } from '@tanstack/react-router';
import { ArrowLeft, Eye } from 'lucide-react';
import { validateAtSearch } from '../../../components/bug-activity/at-search';
import { DeletedBugHistory } from '../../../components/bug-activity/deleted-bug-history';
import { BugComments } from '../../../components/bug-comments/bug-comments';
import { BugDetail } from '../../../components/bug-detail';
import { BugDetailSkeleton } from '../../../components/bug-detail-skeleton';
import { BugLoadError, bugLoadFailure, useLoadedBug } from '../../../components/bug-load-state';
import { bugQuery } from '../../../lib/queries';

/** A bug as the auditor reads it: the shared detail with no actions (no edit, status or checklist controls). */
export const Route = createFileRoute('/auditor/bugs/$bugId')({
  validateSearch: validateAtSearch,
  loader: ({ context, params }) => context.queryClient.ensureQueryData(bugQuery(params.bugId)),
  pendingComponent: BugDetailSkeleton,
  errorComponent: AuditorBugError,
  component: AuditorBugPage,
});

function AuditorBugError({ error }: ErrorComponentProps) {
  const { bugId } = Route.useParams();
  const fallback = <BugLoadError error={error} backTo="/auditor/bugs" backLabel="Back to All Bugs" />;
  // A deleted bug is gone from the lists, but its history stays readable for auditors.
  if (bugLoadFailure(error) === 'notFound') {
    return (
      <>
        <BackToBugs />
        <DeletedBugHistory bugId={bugId} viewAs="auditor" fallback={fallback} />
      </>
    );
  }
  return fallback;
}

function AuditorBugPage() {
  const { bugId } = Route.useParams();
  const bug = useLoadedBug(bugId);
  return (
    <>
      <BackToBugs />
      <BugDetail bug={bug} viewAs="auditor" showCompletion />
      {/* Auditors read the discussion and write nothing: no composer, no actions. */}
      <BugComments bug={bug} viewAs="auditor" className="mt-6" />
    </>
  );
}

function BackToBugs() {
  return (
    <div className="mb-4 flex flex-wrap items-center justify-between gap-3">
      <Link
        to="/auditor/bugs"
        className="inline-flex items-center gap-1.5 text-sm font-medium text-slate-500 hover:text-slate-900"
      >
        <ArrowLeft className="size-4" /> Back to All Bugs
      </Link>
      <span className="inline-flex items-center gap-1.5 rounded-full bg-slate-100 px-2.5 py-1 text-xs font-medium text-slate-600">
        <Eye className="size-3.5" aria-hidden="true" /> Read-only
      </span>
    </div>
  );
}
