import { useQuery } from '@tanstack/react-query';
import { createFileRoute, useRouterState } from '@tanstack/react-router';
import { EditBugForm, ReportBugForm } from '../../components/bug-editor';
import { PageHeader } from '../../components/page-header';
import { SkeletonRows } from '../../components/ui/skeleton';
import '../../lib/history-state';
import { bugQuery } from '../../lib/queries';
import { compact, pickText } from '../../lib/search';

export const Route = createFileRoute('/tester/report-bug')({
  // `?project=KEY`: a project page's "Report a bug here".
  validateSearch: (search: Record<string, unknown>) => compact({ project: pickText(search.project, 100) }),
  // "Edit" from a bug's page arrives here with the bug's id in the history state.
  loader: ({ context, location }) => {
    const bugId = location.state.bugId;
    if (bugId) void context.queryClient.prefetchQuery(bugQuery(bugId));
  },
  component: ReportBugPage,
});

function ReportBugPage() {
  const bugId = useRouterState({ select: (state) => state.location.state.bugId });
  const { project } = Route.useSearch();
  if (bugId) return <EditFromState bugId={bugId} />;
  return (
    <>
      <PageHeader title="Report a Bug" subtitle="Describe the problem so a developer can reproduce and fix it." />
      <ReportBugForm afterCreate="/tester/my-bugs" openBug={(id) => `/tester/bug/${id}`} project={project} />
    </>
  );
}

function EditFromState({ bugId }: { bugId: string }) {
  const { data: bug } = useQuery(bugQuery(bugId));
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
