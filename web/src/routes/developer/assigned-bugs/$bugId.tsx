import { bugMessages } from '@bugtrail/domain/vocabulary';
import { createFileRoute, type ErrorComponentProps, Link } from '@tanstack/react-router';
import { ArrowLeft, RefreshCw } from 'lucide-react';
import { validateAtSearch } from '../../../components/bug-activity/at-search';
import { BugDetail } from '../../../components/bug-detail';
import { BugDetailSkeleton } from '../../../components/bug-detail-skeleton';
import { BugLoadError, useLoadedBug } from '../../../components/bug-load-state';
import { buttonClass } from '../../../components/ui/button';
import { bugQuery } from '../../../lib/queries';

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
        actions={
          <Link to="/developer/update-bugs" search={{ open: bug._id }} className={buttonClass('secondary')}>
            <RefreshCw className="size-4" /> Update Status
          </Link>
        }
      />
    </>
  );
}
