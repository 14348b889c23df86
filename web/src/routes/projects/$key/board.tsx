import { useQuery } from '@tanstack/react-query';
import { createFileRoute, Link, useNavigate } from '@tanstack/react-router';
import { Settings } from 'lucide-react';
import { useCallback, useEffect, useMemo } from 'react';
import { PageHeader } from '../../../components/page-header';
import { buttonClass } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { Skeleton } from '../../../components/ui/skeleton';
import { messageOf } from '../../../lib/api';
import { setCurrentProjectKey } from '../../../lib/current-project';
import { projectQuery } from '../../../lib/projects';
import { compact } from '../../../lib/search';
import { boardQuery } from '../-components/board/board-query';
import { type BoardSearch, boardApiParams, boardSearchFrom } from '../-components/board/board-search';
import { BoardToolbar } from '../-components/board/board-toolbar';
import { BoardView } from '../-components/board/board-view';
import { ProjectKey } from '../-components/project-badges';
import { ProjectUnavailable } from '../-components/project-unavailable';
import { ProjectViews } from '../-components/project-views';

export const Route = createFileRoute('/projects/$key/board')({
  validateSearch: boardSearchFrom,
  loaderDeps: ({ search }) => boardApiParams(search),
  loader: ({ context, params, deps }) => {
    void context.queryClient.prefetchQuery(projectQuery(params.key));
    void context.queryClient.prefetchQuery(boardQuery(params.key, deps));
  },
  component: BoardPage,
});

/**
 * A project's board (api.md "Board"): its bugs in a column per status, in rank order, with the
 * lists' filters and lanes per assignee. Other viewers' moves arrive live (the board's query is a
 * `bugs` one, which every bug change refreshes).
 */
function BoardPage() {
  const { key } = Route.useParams();
  const search = Route.useSearch();
  const { user } = Route.useRouteContext();
  const navigate = useNavigate({ from: Route.fullPath });
  const project = useQuery(projectQuery(key));
  const params = useMemo(() => boardApiParams(search), [search]);
  const board = useQuery(boardQuery(key, params));
  const onSearch = useCallback(
    (patch: Partial<BoardSearch>) => void navigate({ search: (prev) => compact({ ...prev, ...patch }) }),
    [navigate],
  );
  const current = project.data?.key;
  useEffect(() => {
    if (current) setCurrentProjectKey(current);
  }, [current]);

  if (!project.data) return <ProjectUnavailable project={project} projectKey={key} />;
  const p = project.data;
  // Auditors read, they do not move; the server decides for everyone else, bug by bug.
  const canMove = user.role !== 'auditor' && !p.archived;
  return (
    <>
      <PageHeader
        title={
          <span className="flex flex-wrap items-center gap-2">
            <ProjectKey value={p.key} />
            <span className="min-w-0 break-words">{p.name}</span>
            <span className="sr-only">board</span>
          </span>
        }
        subtitle={canMove ? 'Drag a card to change its status or its place, or use its Move menu.' : undefined}
        actions={
          <Link to="/projects/$key/settings" params={{ key: p.key }} className={buttonClass('secondary')}>
            <Settings className="size-4" aria-hidden="true" /> Settings
          </Link>
        }
      />
      <ProjectViews projectKey={p.key} current="board" />
      <BoardToolbar search={search} onChange={onSearch} />
      {board.data ? (
        <div aria-busy={board.isFetching && board.isPlaceholderData ? true : undefined}>
          <BoardView
            board={board.data}
            isSwimlanes={search.lanes === 'assignee'}
            canMove={canMove}
            viewAs={user.role}
          />
        </div>
      ) : board.isError ? (
        <Card className="px-5 py-4 text-sm text-rose-600" role="alert">
          {messageOf(board.error, 'Could not load the board')}
        </Card>
      ) : (
        <div className="grid grid-cols-[repeat(3,minmax(15rem,1fr))] gap-3 overflow-hidden" aria-busy="true">
          {[0, 1, 2].map((i) => (
            <Skeleton key={i} className="h-64 rounded-xl" />
          ))}
        </div>
      )}
    </>
  );
}
