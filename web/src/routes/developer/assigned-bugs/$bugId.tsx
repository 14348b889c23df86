import { useQuery } from '@tanstack/react-query';
import { createFileRoute, Link } from '@tanstack/react-router';
import { ArrowLeft, RefreshCw } from 'lucide-react';
import { BugDetail, BugDetailSkeleton } from '../../../components/bug-detail';
import { InlineNotice } from '../../../components/bug-load-state';
import { buttonClass } from '../../../components/ui/button';
import { bugMessages } from '../../../lib/bug-messages';
import { bugQuery } from '../../../lib/queries';

export const Route = createFileRoute('/developer/assigned-bugs/$bugId')({
  loader: ({ context, params }) => {
    void context.queryClient.prefetchQuery(bugQuery(params.bugId));
  },
  component: AssignedBugPage,
});

function AssignedBugPage() {
  const { bugId } = Route.useParams();
  const { data: bug, error } = useQuery(bugQuery(bugId));
  if (error)
    return (
      <InlineNotice
        message={bugMessages.notFoundOrForbidden}
        backTo="/developer/assigned-bugs"
        backLabel="Back to Assigned Bugs"
      />
    );
  if (!bug) return <BugDetailSkeleton />;
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
        view="team"
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
