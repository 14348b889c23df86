import { useQuery } from '@tanstack/react-query';
import { createFileRoute, Link } from '@tanstack/react-router';
import { FolderX } from 'lucide-react';
import { PageHeader } from '../../../components/page-header';
import { Card } from '../../../components/ui/card';
import { EmptyState } from '../../../components/ui/empty-state';
import { Spinner } from '../../../components/ui/spinner';
import { ApiError, messageOf } from '../../../lib/api';
import { managesProject, projectQuery } from '../../../lib/projects';
import { ProjectBadges, ProjectKey } from '../-components/project-badges';
import { ProjectDetailsForm } from '../-components/project-details-form';
import { ProjectMembers } from '../-components/project-members';

export const Route = createFileRoute('/projects/$key/settings')({
  loader: ({ context, params }) => {
    void context.queryClient.prefetchQuery(projectQuery(params.key));
  },
  component: ProjectSettingsPage,
});

/** One project's settings: its details and its members; read-only to those who do not manage it. */
function ProjectSettingsPage() {
  const { key } = Route.useParams();
  const { user } = Route.useRouteContext();
  const project = useQuery(projectQuery(key));
  if (project.isPending) {
    return (
      <div className="flex justify-center py-16 text-brand-600">
        <Spinner className="size-6" label="Loading" />
      </div>
    );
  }
  if (project.isError) {
    const isMissing = project.error instanceof ApiError && project.error.status === 404;
    return (
      <Card>
        <EmptyState
          icon={<FolderX className="size-6" />}
          title={isMissing ? `There is no project ${key}` : 'Could not load the project'}
        >
          <p className="text-sm text-slate-500">
            {isMissing ? 'It may have a new key, or you may not be one of its members.' : messageOf(project.error, '')}
          </p>
          <Link to="/projects" className="mt-3 text-sm font-medium text-brand-700 hover:underline">
            All projects
          </Link>
        </EmptyState>
      </Card>
    );
  }
  const p = project.data;
  const canManage = managesProject(user, p);
  return (
    <>
      <PageHeader
        title={
          <span className="flex flex-wrap items-center gap-2">
            <ProjectKey value={p.key} />
            <span className="min-w-0 break-words">{p.name}</span>
          </span>
        }
        subtitle={<ProjectBadges project={p} />}
      />
      {/* Keyed by the key and the data: a saved change (or a live one) resets the form to what is stored. */}
      <div className="grid max-w-4xl grid-cols-[minmax(0,1fr)] gap-6">
        <ProjectDetailsForm
          key={`${p._id}:${JSON.stringify([p.key, p.name, p.description, p.private, p.access, p.archived])}`}
          project={p}
          canManage={canManage}
        />
        <ProjectMembers project={p} canManage={canManage} />
      </div>
    </>
  );
}
