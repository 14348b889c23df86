import { createFileRoute, type ErrorComponentProps } from '@tanstack/react-router';
import { EditBugForm } from '../../../components/bug-editor';
import { BugLoadError, useLoadedBug } from '../../../components/bug-load-state';
import { PageHeader } from '../../../components/page-header';
import { SkeletonRows } from '../../../components/ui/skeleton';
import { bugQuery } from '../../../lib/queries';

/** A real route for the edit form, so a reload keeps it. */
export const Route = createFileRoute('/tester/edit-bug/$bugId')({
  loader: ({ context, params }) => context.queryClient.ensureQueryData(bugQuery(params.bugId)),
  pendingComponent: EditBugPending,
  errorComponent: EditBugError,
  component: EditBugPage,
});

function EditBugHeader() {
  return <PageHeader title="Edit Bug" subtitle="Update the details of your report." />;
}

function EditBugPending() {
  return (
    <>
      <EditBugHeader />
      <SkeletonRows rows={8} />
    </>
  );
}

function EditBugError({ error }: ErrorComponentProps) {
  return <BugLoadError error={error} backTo="/tester/my-bugs" backLabel="Back to My Reported Bugs" />;
}

function EditBugPage() {
  const { bugId } = Route.useParams();
  const bug = useLoadedBug(bugId);
  return (
    <>
      <EditBugHeader />
      <EditBugForm bug={bug} afterSave={`/tester/bug/${bug._id}`} afterDelete="/tester/my-bugs" />
    </>
  );
}
