import { bugMessages } from '@bugtrail/domain/vocabulary';
import { useQuery } from '@tanstack/react-query';
import { createFileRoute, type ErrorComponentProps, Link } from '@tanstack/react-router';
import { ArrowLeft, Pencil } from 'lucide-react';
import { validateAtSearch } from '../../../components/bug-activity/at-search';
import { BugDetail } from '../../../components/bug-detail';
import { BugDetailSkeleton } from '../../../components/bug-detail-skeleton';
import { BugLoadError, InlineNotice, useLoadedBug } from '../../../components/bug-load-state';
import { buttonClass } from '../../../components/ui/button';
import { reporterId } from '../../../lib/format';
import { bugQuery } from '../../../lib/queries';
import { profileQuery } from '../../../lib/session';

export const Route = createFileRoute('/tester/bug/$bugId')({
  validateSearch: validateAtSearch,
  loader: ({ context, params }) => context.queryClient.ensureQueryData(bugQuery(params.bugId)),
  pendingComponent: BugDetailSkeleton,
  errorComponent: TesterBugError,
  component: TesterBugPage,
});

function TesterBugError({ error }: ErrorComponentProps) {
  return (
    <BugLoadError error={error} backTo="/tester/all-bugs" backLabel="Back to All Bugs" failedTo="/tester/dashboard" />
  );
}

function TesterBugPage() {
  const { bugId } = Route.useParams();
  const { data: user } = useQuery(profileQuery());
  const bug = useLoadedBug(bugId);
  // Only the creator sees a tester's bug (the server refuses others with a 403 too).
  const isCreator = reporterId(bug.createdBy) === user?._id;
  if (!isCreator)
    return (
      <InlineNotice message={bugMessages.noPermissionToView} backTo="/tester/all-bugs" backLabel="Back to All Bugs" />
    );
  return (
    <>
      <Link
        to="/tester/my-bugs"
        className="mb-4 inline-flex items-center gap-1.5 text-sm font-medium text-slate-500 hover:text-slate-900"
      >
        <ArrowLeft className="size-4" /> Back to My Reported Bugs
      </Link>
      <BugDetail
        bug={bug}
        viewAs="tester"
        actions={
          <Link to="/tester/edit-bug/$bugId" params={{ bugId: bug._id }} className={buttonClass('primary')}>
            <Pencil className="size-4" /> Edit
          </Link>
        }
      />
    </>
  );
}
