import { useQuery } from '@tanstack/react-query';
import { createFileRoute, Link, useNavigate } from '@tanstack/react-router';
import { ArrowLeft, Pencil } from 'lucide-react';
import { useEffect } from 'react';
import { BugDetail, BugDetailSkeleton } from '../../../components/bug-detail';
import { InlineNotice } from '../../../components/bug-load-state';
import { buttonClass } from '../../../components/ui/button';
import { ApiError } from '../../../lib/api';
import { bugMessages } from '../../../lib/bug-messages';
import { reporterId } from '../../../lib/format';
import { notify } from '../../../lib/notify';
import { bugQuery } from '../../../lib/queries';
import { profileQuery } from '../../../lib/session';

export const Route = createFileRoute('/tester/bug/$bugId')({
  loader: ({ context, params }) => {
    void context.queryClient.prefetchQuery(bugQuery(params.bugId));
  },
  component: TesterBugPage,
});

function TesterBugPage() {
  const { bugId } = Route.useParams();
  const navigate = useNavigate();
  const { data: user } = useQuery(profileQuery());
  const { data: bug, error } = useQuery(bugQuery(bugId));
  const status = error instanceof ApiError ? error.status : null;
  const isInline = status === 403 || status === 404;

  useEffect(() => {
    if (error && !isInline) {
      notify.error('Failed to load bug details');
      void navigate({ to: '/tester/dashboard' });
    }
  }, [error, isInline, navigate]);

  if (isInline)
    return (
      <InlineNotice
        message={status === 403 ? bugMessages.noPermissionToView : bugMessages.notFound}
        backTo="/tester/all-bugs"
        backLabel="Back to All Bugs"
      />
    );
  if (!bug) return <BugDetailSkeleton />;
  // Only the creator edits; anyone else who got here is an admin-less viewer.
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
        view="tester"
        actions={
          <Link to="/tester/edit-bug/$bugId" params={{ bugId: bug._id }} className={buttonClass('primary')}>
            <Pencil className="size-4" /> Edit
          </Link>
        }
      />
    </>
  );
}
