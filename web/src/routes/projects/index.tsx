import { useQuery } from '@tanstack/react-query';
import { createFileRoute, Link } from '@tanstack/react-router';
import { FolderKanban } from 'lucide-react';
import { PageHeader } from '../../components/page-header';
import { Card } from '../../components/ui/card';
import { EmptyState } from '../../components/ui/empty-state';
import { messageOf } from '../../lib/api';
import { projectsQuery } from '../../lib/projects';
import { NewProject } from './-components/new-project';
import { ProjectBadges, ProjectKey } from './-components/project-badges';

export const Route = createFileRoute('/projects/')({
  loader: ({ context }) => {
    void context.queryClient.prefetchQuery(projectsQuery());
  },
  component: ProjectsPage,
});

/** Every project the caller may see; admins create new ones here. */
function ProjectsPage() {
  const { user } = Route.useRouteContext();
  const projects = useQuery(projectsQuery());
  const list = projects.data?.projects ?? [];
  return (
    <>
      <PageHeader title="Projects" subtitle="Each product your company ships, with its own key, people and privacy." />
      <div className="grid max-w-4xl grid-cols-[minmax(0,1fr)] gap-6">
        {user.role === 'admin' ? <NewProject /> : null}
        {projects.isError ? (
          <Card className="px-5 py-4 text-sm text-rose-600">
            {messageOf(projects.error, 'Could not load projects')}
          </Card>
        ) : list.length === 0 ? (
          <Card>
            <EmptyState
              icon={<FolderKanban className="size-6" />}
              title={projects.isPending ? 'Loading…' : 'No projects'}
            >
              <p className="max-w-sm text-sm text-slate-500">An admin creates projects.</p>
            </EmptyState>
          </Card>
        ) : (
          <ul aria-label="Projects" className="grid grid-cols-[minmax(0,1fr)] gap-3 sm:grid-cols-2">
            {list.map((project) => {
              const leads = project.members.filter((m) => m.role === 'lead').map((m) => m.user.name);
              return (
                <li key={project._id}>
                  <Card className="h-full px-5 py-4">
                    <div className="flex items-center gap-2">
                      <ProjectKey value={project.key} />
                      <Link
                        to="/projects/$key"
                        params={{ key: project.key }}
                        className="min-w-0 truncate font-semibold text-slate-900 hover:text-brand-700 hover:underline"
                      >
                        {project.name}
                      </Link>
                    </div>
                    {project.description ? (
                      <p className="mt-1.5 line-clamp-2 text-sm text-slate-600">{project.description}</p>
                    ) : null}
                    <div className="mt-3 flex flex-wrap items-center gap-2 text-xs text-slate-500">
                      <ProjectBadges project={project} />
                      <span>
                        {project.members.length === 1 ? '1 member' : `${project.members.length} members`}
                        {leads.length > 0 ? ` · led by ${leads.join(', ')}` : ''}
                      </span>
                    </div>
                  </Card>
                </li>
              );
            })}
          </ul>
        )}
      </div>
    </>
  );
}
