import { useQuery } from '@tanstack/react-query';
import { createFileRoute, Link } from '@tanstack/react-router';
import { CalendarDays, Flag } from 'lucide-react';
import { PageHeader } from '../../../../components/page-header';
import { ProgressMeter } from '../../../../components/planning/progress-meter';
import { Card, CardHeader } from '../../../../components/ui/card';
import { EmptyState } from '../../../../components/ui/empty-state';
import { Skeleton } from '../../../../components/ui/skeleton';
import { messageOf } from '../../../../lib/api';
import { notify } from '../../../../lib/notify';
import { canManageMilestones, type Milestone, milestonesQuery, useCreateMilestone } from '../../../../lib/planning';
import { projectQuery } from '../../../../lib/projects';
import { isMilestoneLate, MilestoneState, milestoneDates } from '../../-components/milestones/milestone-facts';
import { MilestoneForm } from '../../-components/milestones/milestone-form';
import { ProjectKey } from '../../-components/project-badges';
import { ProjectUnavailable } from '../../-components/project-unavailable';
import { ProjectViews } from '../../-components/project-views';

export const Route = createFileRoute('/projects/$key/milestones/')({
  loader: ({ context, params }) => {
    void context.queryClient.prefetchQuery(projectQuery(params.key));
    void context.queryClient.prefetchQuery(milestonesQuery(params.key));
  },
  component: MilestonesPage,
});

/**
 * A project's milestones (api.md "Milestones"): the open ones first (soonest due on top), each
 * with its dates and how many of its bugs are closed; admins and the project's leads plan new ones.
 */
function MilestonesPage() {
  const { key } = Route.useParams();
  const { user } = Route.useRouteContext();
  const project = useQuery(projectQuery(key));
  const milestones = useQuery(milestonesQuery(key));
  const create = useCreateMilestone(project.data?._id ?? key);

  if (!project.data) return <ProjectUnavailable project={project} projectKey={key} />;
  const p = project.data;
  const canManage = canManageMilestones(user, p) && !p.archived;
  const all = milestones.data?.milestones ?? [];
  const open = all.filter((m) => !m.closedAt).sort(bySoonestDue);
  const closed = all.filter((m) => m.closedAt).sort((a, b) => (b.closedAt ?? '').localeCompare(a.closedAt ?? ''));
  return (
    <>
      <PageHeader
        title={
          <span className="flex flex-wrap items-center gap-2">
            <ProjectKey value={p.key} />
            <span className="min-w-0 break-words">{p.name}</span>
            <span className="sr-only">milestones</span>
          </span>
        }
        subtitle="Plan bugs into milestones and follow them to done."
      />
      <ProjectViews projectKey={p.key} current="milestones" />
      <div className="grid grid-cols-1 items-start gap-6 lg:grid-cols-3">
        <div className="min-w-0 space-y-6 lg:col-span-2">
          {milestones.isPending ? (
            <div className="space-y-3" aria-busy="true">
              <Skeleton className="h-24 rounded-xl" />
              <Skeleton className="h-24 rounded-xl" />
            </div>
          ) : milestones.isError ? (
            <Card className="px-5 py-4 text-sm text-rose-600" role="alert">
              {messageOf(milestones.error, 'Could not load the milestones')}
            </Card>
          ) : all.length === 0 ? (
            <Card>
              <EmptyState icon={<Flag className="size-6" />} title="No milestones yet">
                <p className="text-sm text-slate-500">
                  {canManage ? 'Plan the first one with the form.' : 'An admin or a project lead plans milestones.'}
                </p>
              </EmptyState>
            </Card>
          ) : (
            <>
              <MilestoneSection title="Open" projectKey={p.key} milestones={open} empty="No open milestones" />
              {closed.length > 0 ? (
                <MilestoneSection title="Closed" projectKey={p.key} milestones={closed} empty="" />
              ) : null}
            </>
          )}
        </div>
        {canManage ? (
          <Card className="min-w-0">
            <CardHeader title="New milestone" />
            <div className="p-5">
              <MilestoneForm
                submitLabel="Create milestone"
                isBusy={create.isPending}
                onSubmit={async (draft) => {
                  const made = await create.mutateAsync(draft);
                  notify.success(`Milestone ${made.name} created`);
                }}
              />
            </div>
          </Card>
        ) : null}
      </div>
    </>
  );
}

const bySoonestDue = (a: Milestone, b: Milestone) =>
  (a.dueDate ?? '9999').localeCompare(b.dueDate ?? '9999') || a.name.localeCompare(b.name);

function MilestoneSection({
  title,
  projectKey,
  milestones,
  empty,
}: {
  title: string;
  projectKey: string;
  milestones: Milestone[];
  empty: string;
}) {
  return (
    <section aria-label={`${title} milestones`} className="space-y-3">
      <h2 className="text-sm font-semibold tracking-wide text-slate-500 uppercase">
        {title} <span className="font-normal">({milestones.length})</span>
      </h2>
      {milestones.length === 0 ? (
        <p className="text-sm text-slate-500">{empty}</p>
      ) : (
        <ul className="space-y-3">
          {milestones.map((milestone) => (
            <li key={milestone._id}>
              <MilestoneCard projectKey={projectKey} milestone={milestone} />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function MilestoneCard({ projectKey, milestone }: { projectKey: string; milestone: Milestone }) {
  const { total, closed } = milestone.progress;
  return (
    <Card className="min-w-0 p-4 sm:p-5" data-milestone={milestone.name}>
      <div className="flex min-w-0 flex-wrap items-start justify-between gap-x-3 gap-y-1">
        <h3 className="min-w-0 text-base font-semibold [overflow-wrap:anywhere] text-slate-900">
          <Link
            to="/projects/$key/milestones/$milestoneId"
            params={{ key: projectKey, milestoneId: milestone._id }}
            className="hover:text-brand-700 hover:underline"
          >
            {milestone.name}
          </Link>
        </h3>
        <MilestoneState milestone={milestone} />
      </div>
      <p className={isMilestoneLate(milestone) ? 'mt-1 text-sm text-rose-700' : 'mt-1 text-sm text-slate-500'}>
        <CalendarDays className="mr-1.5 inline size-4 align-[-3px]" aria-hidden="true" />
        {milestoneDates(milestone)}
      </p>
      {milestone.description ? (
        <p className="mt-2 line-clamp-2 text-sm [overflow-wrap:anywhere] text-slate-600">{milestone.description}</p>
      ) : null}
      <div className="mt-3 flex flex-wrap items-center gap-x-4 gap-y-1">
        <p className="text-sm font-medium text-slate-700">
          {closed} of {total} {total === 1 ? 'bug' : 'bugs'} done
        </p>
        <ProgressMeter done={closed} total={total} label={`${milestone.name}: bugs done`} className="min-w-40 flex-1" />
      </div>
    </Card>
  );
}
