import { createFileRoute } from '@tanstack/react-router';
import { ReportBugForm } from '../../components/bug-editor';
import { PageHeader } from '../../components/page-header';

export const Route = createFileRoute('/admin/create-bug')({ component: CreateBugPage });

function CreateBugPage() {
  return (
    <>
      <PageHeader title="Create Bug" subtitle="Report a bug and assign it to developers." />
      <ReportBugForm afterCreate="/admin/bugs" openBug={(id) => `/admin/bugs/${id}`} />
    </>
  );
}
