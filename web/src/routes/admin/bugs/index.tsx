import { useInfiniteQuery } from '@tanstack/react-query';
import { createFileRoute, Link, useNavigate } from '@tanstack/react-router';
import { Archive, Plus } from 'lucide-react';
import { useCallback, useState } from 'react';
import { BugList } from '../../../components/bug-list/bug-list';
import { bugListPagesQuery, prefetchBugList } from '../../../components/bug-list/list-query';
import {
  bugExportPath,
  type ListSearch,
  listApiParams,
  listSearchFrom,
} from '../../../components/bug-list/list-search';
import { ConfirmModal } from '../../../components/confirm-modal';
import { DownloadReportButton } from '../../../components/download-report-button';
import { PageHeader } from '../../../components/page-header';
import { TeamStatusTabs, teamTabCounts } from '../../../components/team-status-tabs';
import { Button, buttonClass } from '../../../components/ui/button';
import { bugTitle } from '../../../lib/format';
import { useDeleteBug } from '../../../lib/mutations';
import { notify } from '../../../lib/notify';
import { compact, pickOne, teamTabs } from '../../../lib/search';
import type { Bug as BugType } from '../../../lib/types';

export const Route = createFileRoute('/admin/bugs/')({
  validateSearch: (search: Record<string, unknown>) =>
    compact({ status: pickOne(search.status, teamTabs), ...listSearchFrom(search) }),
  loaderDeps: ({ search }) => search,
  loader: ({ context, deps }) => prefetchBugList(context.queryClient, '/api/bugs', deps),
  component: ManageBugsPage,
});

function ManageBugsPage() {
  const search = Route.useSearch();
  const { status, ...list } = search;
  const navigate = useNavigate({ from: Route.fullPath });
  const onSearch = useCallback(
    (patch: Partial<ListSearch>) => void navigate({ search: (prev) => compact({ ...prev, ...patch }) }),
    [navigate],
  );
  // The list's own query (shared cache): its statusSummary counts the unfiltered scope for the tabs.
  const pages = useInfiniteQuery(bugListPagesQuery('/api/bugs', listApiParams({ ...list, status })));
  const remove = useDeleteBug();
  const [toDelete, setToDelete] = useState<BugType | null>(null);
  const counts = teamTabCounts(pages.data?.pages[0]?.statusSummary);

  return (
    <>
      <PageHeader
        title="Manage Bugs"
        subtitle="Every bug across the team."
        actions={
          <>
            <DownloadReportButton
              path={bugExportPath(listApiParams({ ...list, status }))}
              filename="bug_details.xlsx"
              failure="Failed to download report"
            />
            <Link to="/admin/create-bug" className={buttonClass('primary')}>
              <Plus className="size-4" /> Create Bug
            </Link>
          </>
        }
      />
      {/* The tabs count the bugs in the lists; the archived ones are in none of them. */}
      {list.archived ? null : (
        <TeamStatusTabs
          status={status}
          counts={counts}
          onChange={(next) => void navigate({ search: (prev) => compact({ ...prev, status: next.status }) })}
        />
      )}
      <BugList
        endpoint="/api/bugs"
        viewAs="admin"
        status={status}
        search={list}
        onSearch={onSearch}
        emptyTitle="No bugs found"
        onOpen={(bug) => void navigate({ to: '/admin/bugs/$bugId', params: { bugId: bug._id } })}
        onDelete={setToDelete}
        bulk
        filters={
          <Button
            variant={list.archived ? 'primary' : 'outline'}
            aria-pressed={Boolean(list.archived)}
            icon={<Archive className="size-4" />}
            onClick={() =>
              void navigate({
                search: (prev) => compact({ ...prev, status: undefined, archived: list.archived ? undefined : true }),
              })
            }
          >
            Archived
          </Button>
        }
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
