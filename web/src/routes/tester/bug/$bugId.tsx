import { bugMessages } from '@bugtrail/domain/vocabulary';
import { useQuery } from '@tanstack/react-query';
import { createFileRoute, type ErrorComponentProps, Link } from '@tanstack/react-router';
import { ArrowLeft, Pencil } from 'lucide-react';
import { type AtSearch, validateAtSearch } from '../../../components/bug-activity/at-search';
import { BugComments } from '../../../components/bug-comments/bug-comments';
import { BugDetail } from '../../../components/bug-detail';
import { BugDetailSkeleton } from '../../../components/bug-detail-skeleton';
import { EditBugForm } from '../../../components/bug-editor';
import { BugLoadError, InlineNotice, useLoadedBug } from '../../../components/bug-load-state';
import { buttonClass } from '../../../components/ui/button';
import { reporterId } from '../../../lib/format';
import { bugQuery } from '../../../lib/queries';
import { profileQuery } from '../../../lib/session';

/** `?edit=1`: the reporter's edit form in place, under the bug's own heading (a reload keeps it). */
export const Route = createFileRoute('/tester/bug/$bugId')({
  validateSearch: (search: Record<string, unknown>): AtSearch & { edit?: 1 } => ({
    ...validateAtSearch(search),
    ...(search.edit === 1 || search.edit === '1' || search.edit === true ? { edit: 1 as const } : {}),
  }),
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
  const { edit, at } = Route.useSearch();
  const { data: user } = useQuery(profileQuery());
  const bug = useLoadedBug(bugId);
  // Only the creator sees a tester's bug (the server refuses others with a 403 too).
  const isCreator = reporterId(bug.createdBy) === user?._id;
  if (!isCreator)
    return (
      <InlineNotice message={bugMessages.noPermissionToView} backTo="/tester/all-bugs" backLabel="Back to All Bugs" />
    );
  if (edit && !at)
    return (
      <>
        <Link
          to="/tester/bug/$bugId"
          params={{ bugId: bug._id }}
          className="mb-4 inline-flex items-center gap-1.5 text-sm font-medium text-slate-500 hover:text-slate-900"
        >
          <ArrowLeft className="size-4" /> Back to the bug
        </Link>
        <div className="mb-6 min-w-0">
          {bug.number ? (
            <p className="font-mono text-sm text-slate-500">
              <span className="sr-only">Bug number </span>#{bug.number}
            </p>
          ) : null}
          <h1 className="text-2xl font-bold tracking-tight break-words text-slate-900 [overflow-wrap:anywhere]">
            {bug.title}
          </h1>
          <h2 className="mt-2 text-sm font-semibold tracking-wide text-slate-500 uppercase">Edit Bug</h2>
        </div>
        <EditBugForm bug={bug} afterSave={`/tester/bug/${bug._id}`} afterDelete="/tester/my-bugs" />
      </>
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
          <Link
            to="/tester/bug/$bugId"
            params={{ bugId: bug._id }}
            search={{ edit: 1 }}
            className={buttonClass('primary')}
          >
            <Pencil className="size-4" /> Edit
          </Link>
        }
      />
      <BugComments bug={bug} viewAs="tester" className="mt-6" />
    </>
  );
}
