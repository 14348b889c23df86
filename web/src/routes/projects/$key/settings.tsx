import { useQuery } from '@tanstack/react-query';
import { createFileRoute } from '@tanstack/react-router';
import { Automations } from '../../../components/automations/automations';
import { SlaPolicies } from '../../../components/automations/sla-policies';
import { PageHeader } from '../../../components/page-header';
import { managesProject, projectQuery } from '../../../lib/projects';
import { ProjectBadges, ProjectKey } from '../-components/project-badges';
import { ProjectCustomFields } from '../-components/project-custom-fields';
import { ProjectDetailsForm } from '../-components/project-details-form';
import { ProjectMembers } from '../-components/project-members';
import { ProjectStates } from '../-components/project-states';
import { ProjectUnavailable } from '../-components/project-unavailable';

export const Route = createFileRoute('/projects/$key/settings')({
  loader: ({ context, params }) => {
    void context.queryClient.prefetchQuery(projectQuery(params.key));
  },
  component: ProjectSettingsPage,
});

/** One project's settings: its details, its members and its custom fields; read-only to those who do not manage it. */
function ProjectSettingsPage() {
  const { key } = Route.useParams();
  const { user } = Route.useRouteContext();
  const project = useQuery(projectQuery(key));
  if (!project.data) return <ProjectUnavailable project={project} projectKey={key} />;
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
        <ProjectStates projectId={p._id} canManage={canManage} />
        <ProjectCustomFields projectId={p._id} canManage={canManage} />
        {canManage ? (
          <section aria-labelledby="project-automations" className="grid gap-3">
            <h2 id="project-automations" className="text-lg font-semibold text-slate-900">
              Automations
            </h2>
            <Automations projectId={p._id} />
          </section>
        ) : null}
        {canManage ? (
          <section aria-labelledby="project-sla" className="grid gap-3">
            <h2 id="project-sla" className="text-lg font-semibold text-slate-900">
              SLA policies
            </h2>
            <SlaPolicies projectId={p._id} />
          </section>
        ) : null}
      </div>
    </>
  );
}
