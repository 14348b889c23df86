import { useInfiniteQuery } from '@tanstack/react-query';
import { createFileRoute, Link, useNavigate } from '@tanstack/react-router';
import { Plus } from 'lucide-react';
import { useState } from 'react';
import { BugCardGrid } from '../../../components/bug-card-grid';
import { ConfirmModal } from '../../../components/confirm-modal';
import { DownloadReportButton } from '../../../components/download-report-button';
import { PageHeader } from '../../../components/page-header';
import { TeamStatusTabs, teamTabCounts } from '../../../components/team-status-tabs';
import { buttonClass } from '../../../components/ui/button';
import { bugTitle } from '../../../lib/format';
import { useDeleteBug } from '../../../lib/mutations';
import { notify } from '../../../lib/notify';
import { bugListQuery } from '../../../lib/queries';
import { compact, pickOne, teamTabs } from '../../../lib/search';
import type { Bug as BugType } from '../../../lib/types';
import { useErrorToast } from '../../../lib/use-error-toast';

export const Route = createFileRoute('/admin/bugs/')({
  validateSearch: (search: Record<string, unknown>) => compact({ status: pickOne(search.status, teamTabs) }),
  loaderDeps: ({ search }) => ({ status: search.status }),
  loader: ({ context, deps }) => {
    void context.queryClient.prefetchInfiniteQuery(bugListQuery({ status: deps.status ?? '' }));
  },
  component: ManageBugsPage,
});

function ManageBugsPage() {
  const { status } = Route.useSearch();
  const navigate = useNavigate({ from: Route.fullPath });
  const query = useInfiniteQuery(bugListQuery({ status: status ?? '' }));
  useErrorToast(query.error, 'Failed to load bugs');
  const remove = useDeleteBug();
  const [toDelete, setToDelete] = useState<BugType | null>(null);
  const counts = teamTabCounts(query.data?.pages[0]?.statusSummary);

  return (
    <>
      <PageHeader
        title="Manage Bugs"
        subtitle="Every bug across the team."
        actions={
          <>
            <DownloadReportButton
              path="/api/reports/export/bugs"
              filename="bug_details.xlsx"
              failure="Failed to download report"
            />
            <Link to="/admin/create-bug" className={buttonClass('primary')}>
              <Plus className="size-4" /> Create Bug
            </Link>
          </>
        }
      />
      <TeamStatusTabs status={status} counts={counts} onChange={(search) => void navigate({ search })} />
      <BugCardGrid
        query={query}
        viewAs="admin"
        emptyTitle="No bugs found"
        onOpen={(bug) => void navigate({ to: '/admin/bugs/$bugId', params: { bugId: bug._id } })}
        onDelete={setToDelete}
        total={counts[status ?? ''] ?? counts['']}
      />
      <ConfirmModal
        isOpen={toDelete !== null}
        title="Delete Bug"
        confirmLabel="Delete"
        isBusy={remove.isPending}
        onClose={() => setToDelete(null)}
        onConfirm={() => {
          if (!toDelete) return;
          remove.mutate(toDelete._id, {
            onSuccess: () => {
              notify.success('Bug deleted successfully');
              setToDelete(null);
            },
            onError: () => notify.error('Failed to delete bug'),
          });
        }}
      >
        Are you sure you want to delete “{toDelete ? bugTitle(toDelete) : ''}”? This cannot be undone.
      </ConfirmModal>
    </>
  );
}
