import { createFileRoute } from '@tanstack/react-router';
import { ReportBugForm } from '../../components/bug-editor';
import { PageHeader } from '../../components/page-header';
import { compact, pickText } from '../../lib/search';

export const Route = createFileRoute('/admin/create-bug')({
  // `?project=KEY`: a project page's "Report a bug here".
  validateSearch: (search: Record<string, unknown>) => compact({ project: pickText(search.project, 100) }),
  component: CreateBugPage,
});

function CreateBugPage() {
  const { project } = Route.useSearch();
  return (
    <>
      <PageHeader title="Create Bug" subtitle="Report a bug and assign it to developers." />
      <ReportBugForm afterCreate="/admin/bugs" openBug={(id) => `/admin/bugs/${id}`} project={project} />
    </>
  );
}
