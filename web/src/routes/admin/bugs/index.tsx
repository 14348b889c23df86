import { useInfiniteQuery } from '@tanstack/react-query';
import { createFileRoute, Link, useNavigate } from '@tanstack/react-router';
import { Download, Plus } from 'lucide-react';
import { useState } from 'react';
import { BugCardGrid } from '../../../components/bug-card-grid';
import { ConfirmModal } from '../../../components/confirm-modal';
import { PageHeader } from '../../../components/page-header';
import { Button, buttonClass } from '../../../components/ui/button';
import { Tabs } from '../../../components/ui/tabs';
import { downloadFile } from '../../../lib/api';
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
  const [isDownloading, setDownloading] = useState(false);
  const summary = query.data?.pages[0]?.statusSummary;
  const counts: Record<string, number> = {
    '': summary?.all ?? 0,
    Pending: summary?.pendingBugs ?? summary?.openBugs ?? summary?.open ?? 0,
    'In Progress': summary?.inProgressBugs ?? summary?.inProgress ?? 0,
    Resolved: summary?.resolvedBugs ?? summary?.closedBugs ?? summary?.closed ?? 0,
  };

  const download = async () => {
    setDownloading(true);
    try {
      await downloadFile('/api/reports/export/bugs', 'bug_details.xlsx');
    } catch {
      notify.error('Failed to download report');
    } finally {
      setDownloading(false);
    }
  };

  return (
    <>
      <PageHeader
        title="Manage Bugs"
        subtitle="Every bug across the team."
        actions={
          <>
            <Button
              variant="secondary"
              onClick={download}
              isLoading={isDownloading}
              icon={<Download className="size-4" />}
            >
              Download Report
            </Button>
            <Link to="/admin/create-bug" className={buttonClass('primary')}>
              <Plus className="size-4" /> Create Bug
            </Link>
          </>
        }
      />
      {(counts[''] ?? 0) > 0 ? (
        <div className="mb-6">
          <Tabs
            label="Filter by status"
            value={status ?? ''}
            onChange={(value) => void navigate({ search: compact({ status: pickOne(value, teamTabs) }) })}
            tabs={[
              { value: '', label: 'All', count: counts[''] },
              ...teamTabs.map((tab) => ({ value: tab, label: tab, count: counts[tab] ?? 0 })),
            ]}
          />
        </div>
      ) : null}
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
