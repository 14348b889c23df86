import { useQuery } from '@tanstack/react-query';
import { createFileRoute } from '@tanstack/react-router';
import { EditBugForm } from '../../../components/bug-editor';
import { InlineNotice } from '../../../components/bug-load-state';
import { PageHeader } from '../../../components/page-header';
import { SkeletonRows } from '../../../components/ui/skeleton';
import { ApiError } from '../../../lib/api';
import { bugMessages } from '../../../lib/bug-messages';
import { bugQuery } from '../../../lib/queries';

/** A real route for the edit form, so a reload keeps it. */
export const Route = createFileRoute('/tester/edit-bug/$bugId')({
  loader: ({ context, params }) => {
    void context.queryClient.prefetchQuery(bugQuery(params.bugId));
  },
  component: EditBugPage,
});

function EditBugPage() {
  const { bugId } = Route.useParams();
  const { data: bug, error } = useQuery(bugQuery(bugId));
  if (error) {
    const message =
      error instanceof ApiError && error.status === 403
        ? bugMessages.noPermissionToView
        : error instanceof ApiError && error.status === 404
          ? bugMessages.notFound
          : 'Failed to load bug details';
    return <InlineNotice message={message} backTo="/tester/my-bugs" backLabel="Back to My Reported Bugs" />;
  }
  return (
    <>
      <PageHeader title="Edit Bug" subtitle="Update the details of your report." />
      {bug ? (
        <EditBugForm bug={bug} afterSave={`/tester/bug/${bug._id}`} afterDelete="/tester/my-bugs" />
      ) : (
        <SkeletonRows rows={8} />
      )}
    </>
  );
}
