import { useQuery } from '@tanstack/react-query';
import { createFileRoute, Link, useNavigate } from '@tanstack/react-router';
import { Plus, Settings } from 'lucide-react';
import { useCallback, useEffect } from 'react';
import { BugList } from '../../../components/bug-list/bug-list';
import { type ListSearch, listSearchFrom } from '../../../components/bug-list/list-search';
import { PageHeader } from '../../../components/page-header';
import { buttonClass } from '../../../components/ui/button';
import { Tabs } from '../../../components/ui/tabs';
import { setCurrentProjectKey } from '../../../lib/current-project';
import { projectQuery } from '../../../lib/projects';
import { compact, pickOne } from '../../../lib/search';
import { ProjectBadges, ProjectKey } from '../-components/project-badges';
import { ProjectUnavailable } from '../-components/project-unavailable';
import { ProjectViews } from '../-components/project-views';

const scopes = ['all', 'triage'] as const;

export const Route = createFileRoute('/projects/$key/')({
  validateSearch: (search: Record<string, unknown>) =>
    compact({ show: pickOne(search.show, scopes), ...listSearchFrom(search) }),
  loader: ({ context, params }) => {
    void context.queryClient.prefetchQuery(projectQuery(params.key));
  },
  component: ProjectPage,
});

/**
 * One project's bugs (api.md "Projects": `/projects/{key}`), as the caller may see them, with
 * the list's filters; a team project's triage (open bugs with no assignee) one tab away. Opening
 * it makes it the current project (the sidebar marks it; the report form starts in it).
 */
function ProjectPage() {
  const { key } = Route.useParams();
  const { show, ...list } = Route.useSearch();
  const { user } = Route.useRouteContext();
  const navigate = useNavigate({ from: Route.fullPath });
  const project = useQuery(projectQuery(key));
  const onSearch = useCallback(
    (patch: Partial<ListSearch>) => void navigate({ search: (prev) => compact({ ...prev, ...patch }) }),
    [navigate],
  );
  const current = project.data?.key;
  useEffect(() => {
    if (current) setCurrentProjectKey(current);
  }, [current]);

  if (!project.data) return <ProjectUnavailable project={project} projectKey={key} />;
  const p = project.data;
  const isTeam = p.access === 'team';
  const canReport = (user.role === 'admin' || user.role === 'tester') && !p.archived;
  const reportPath = user.role === 'admin' ? '/admin/create-bug' : '/tester/report-bug';
  return (
    <>
      <PageHeader
        title={
          <span className="flex flex-wrap items-center gap-2">
            <ProjectKey value={p.key} />
            <span className="min-w-0 break-words">{p.name}</span>
          </span>
        }
        subtitle={
          <span className="flex flex-col gap-1.5">
            {p.description ? <span className="text-sm text-slate-500">{p.description}</span> : null}
            <ProjectBadges project={p} />
          </span>
        }
        actions={
          <>
            <Link to="/projects/$key/settings" params={{ key: p.key }} className={buttonClass('secondary')}>
              <Settings className="size-4" /> Settings
            </Link>
            {canReport ? (
              <Link to={reportPath} search={{ project: p.key }} className={buttonClass('primary')}>
                <Plus className="size-4" /> Report a bug here
              </Link>
            ) : null}
          </>
        }
      />
      <ProjectViews projectKey={p.key} current="list" />
      {isTeam ? (
        <div className="mb-6">
          <Tabs
            label="Which bugs"
            value={show ?? 'all'}
            onChange={(value) =>
              void navigate({
                search: (prev) => compact({ ...prev, show: value === 'triage' ? ('triage' as const) : undefined }),
              })
            }
            tabs={[
              { value: 'all', label: 'All bugs' },
              { value: 'triage', label: 'Triage' },
            ]}
          />
        </div>
      ) : null}
      <BugList
        key={`${p._id}:${show ?? 'all'}`}
        endpoint="/api/bugs"
        viewAs={user.role}
        search={list}
        scope={{ project: p._id, ...(isTeam && show === 'triage' ? { triage: 'true' } : {}) }}
        onSearch={onSearch}
        emptyTitle={show === 'triage' ? 'Nothing waits in triage' : `No bugs in ${p.key} for you to see`}
        onOpen={(bug) => void navigate({ to: '/bugs/$number', params: { number: bug.key ?? String(bug.number) } })}
      />
    </>
  );
}
