import { useQuery } from '@tanstack/react-query';
import { createFileRoute, Link, useNavigate } from '@tanstack/react-router';
import { ArrowLeft, CalendarDays, Lock, Pencil, RotateCcw, Trash2 } from 'lucide-react';
import { useId, useMemo, useState } from 'react';
import { ConfirmModal } from '../../../../components/confirm-modal';
import { CHART_HEIGHT } from '../../../../components/flow/chart-frame';
import { LabelChips } from '../../../../components/labels/label-chip';
import { PageHeader } from '../../../../components/page-header';
import { ProgressMeter } from '../../../../components/planning/progress-meter';
import { StatusBadge } from '../../../../components/ui/badge';
import { Button } from '../../../../components/ui/button';
import { Card, CardHeader } from '../../../../components/ui/card';
import { cx } from '../../../../components/ui/cx';
import { controlClass } from '../../../../components/ui/field';
import { Skeleton } from '../../../../components/ui/skeleton';
import { ApiError, messageOf } from '../../../../lib/api';
import { bugTitle, formatDate, formatDateTime } from '../../../../lib/format';
import { notify } from '../../../../lib/notify';
import {
  burnupQuery,
  canManageMilestones,
  type Milestone,
  milestoneBugsQuery,
  milestoneQuery,
  releaseNotes,
  useDeleteMilestone,
  useUpdateMilestone,
} from '../../../../lib/planning';
import { projectQuery } from '../../../../lib/projects';
import { formatMinutes } from '../../../../lib/time';
import type { Bug, Role } from '../../../../lib/types';
import { BurnupChart } from '../../-components/milestones/burnup-chart';
import { isMilestoneLate, MilestoneState, milestoneDates } from '../../-components/milestones/milestone-facts';
import { MilestoneForm } from '../../-components/milestones/milestone-form';
import { ReleaseNotes } from '../../-components/milestones/release-notes';
import { ProjectKey } from '../../-components/project-badges';
import { ProjectUnavailable } from '../../-components/project-unavailable';
import { ProjectViews } from '../../-components/project-views';

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** `?asOf=YYYY-MM-DD`: the burn-up as it stood at the end of that day. */
type MilestoneSearch = { asOf?: string };

export const Route = createFileRoute('/projects/$key/milestones/$milestoneId')({
  validateSearch: (search: Record<string, unknown>): MilestoneSearch =>
    typeof search.asOf === 'string' && DAY.test(search.asOf) ? { asOf: search.asOf } : {},
  loader: ({ context, params }) => {
    void context.queryClient.prefetchQuery(projectQuery(params.key));
    void context.queryClient.prefetchQuery(milestoneQuery(params.milestoneId));
  },
  component: MilestonePage,
});

/**
 * One milestone (api.md "Milestones"): its dates, description and progress; its burn-up from the
 * event log (as of any day); its bugs; and its release notes to copy. Admins and the project's
 * leads edit, close, reopen and delete it.
 */
function MilestonePage() {
  const { key, milestoneId } = Route.useParams();
  const { asOf } = Route.useSearch();
  const { user } = Route.useRouteContext();
  const navigate = useNavigate({ from: Route.fullPath });
  const project = useQuery(projectQuery(key));
  const milestone = useQuery(milestoneQuery(milestoneId));
  const bugs = useQuery(milestoneBugsQuery(milestoneId));
  const [isEditing, setEditing] = useState(false);

  if (!project.data) return <ProjectUnavailable project={project} projectKey={key} />;
  const p = project.data;
  if (!milestone.data)
    return (
      <>
        <BackToMilestones projectKey={p.key} />
        {milestone.isPending ? (
          <Skeleton className="h-40 rounded-xl" />
        ) : (
          <Card className="px-5 py-8 text-center" role="alert">
            <h1 className="text-lg font-semibold text-slate-900">
              {milestone.error instanceof ApiError && milestone.error.status === 404
                ? 'There is no such milestone'
                : messageOf(milestone.error, 'Could not load the milestone')}
            </h1>
          </Card>
        )}
      </>
    );
  const m = milestone.data;
  const canManage = canManageMilestones(user, p) && !p.archived;
  const list = bugs.data?.bugs ?? [];
  return (
    <>
      <BackToMilestones projectKey={p.key} />
      <PageHeader
        title={<span className="break-words [overflow-wrap:anywhere]">{m.name}</span>}
        subtitle={
          <span className="flex flex-wrap items-center gap-2">
            <ProjectKey value={p.key} />
            <span>{p.name}</span>
            <MilestoneState milestone={m} />
            <span className="text-slate-500">{milestoneDates(m)}</span>
          </span>
        }
        actions={
          canManage ? <MilestoneActions milestone={m} projectKey={p.key} onEdit={() => setEditing(true)} /> : null
        }
      />
      <ProjectViews projectKey={p.key} current="milestones" />
      {isEditing ? <EditMilestone milestone={m} onDone={() => setEditing(false)} /> : null}
      <div className="grid grid-cols-1 items-start gap-6 lg:grid-cols-3">
        <div className="min-w-0 space-y-6 lg:col-span-2">
          <BurnupCard
            milestone={m}
            asOf={asOf ?? ''}
            onAsOf={(day) => void navigate({ search: day ? { asOf: day } : {}, replace: true })}
          />
          <MilestoneBugs
            bugs={list}
            isLoading={bugs.isPending}
            error={bugs.isError ? messageOf(bugs.error, 'Could not load the bugs') : ''}
            viewAs={user.role}
          />
        </div>
        <div className="min-w-0 space-y-6">
          <Overview milestone={m} />
          <ReleaseNotes text={releaseNotes(m.name, list)} />
        </div>
      </div>
    </>
  );
}

function BackToMilestones({ projectKey }: { projectKey: string }) {
  return (
    <Link
      to="/projects/$key/milestones"
      params={{ key: projectKey }}
      className="mb-4 inline-flex items-center gap-1.5 text-sm font-medium text-slate-500 hover:text-slate-900"
    >
      <ArrowLeft className="size-4" aria-hidden="true" /> All milestones
    </Link>
  );
}

function Overview({ milestone }: { milestone: Milestone }) {
  const { total, closed } = milestone.progress;
  return (
    <Card className="min-w-0">
      <CardHeader title="Overview" />
      <div className="space-y-4 p-5">
        <div className="space-y-2">
          <p className="text-sm font-medium text-slate-800">
            {closed} of {total} {total === 1 ? 'bug' : 'bugs'} done
          </p>
          <ProgressMeter done={closed} total={total} label="Milestone bugs done" />
        </div>
        <div className="space-y-2">
          <p className="text-sm font-medium text-slate-800">
            {formatMinutes(milestone.spentMinutes ?? 0)} spent of {milestone.estimate ?? 0}h estimated
          </p>
          {milestone.estimate ? (
            <ProgressMeter
              done={Math.min(milestone.spentMinutes ?? 0, milestone.estimate * 60)}
              total={milestone.estimate * 60}
              label="Time spent of the estimate"
            />
          ) : null}
        </div>
        <dl className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-4 gap-y-2 text-sm">
          <dt className="text-slate-500">Start</dt>
          <dd className="text-slate-900">{formatDate(milestone.startDate)}</dd>
          <dt className="text-slate-500">Due</dt>
          <dd className={isMilestoneLate(milestone) ? 'text-rose-700' : 'text-slate-900'}>
            {formatDate(milestone.dueDate)}
            {isMilestoneLate(milestone) ? ' · Late' : ''}
          </dd>
          {milestone.closedAt ? (
            <>
              <dt className="text-slate-500">Closed</dt>
              <dd className="text-slate-900">{formatDateTime(milestone.closedAt)}</dd>
            </>
          ) : null}
        </dl>
        <div>
          <h3 className="text-xs font-semibold tracking-wide text-slate-500 uppercase">Description</h3>
          <p className="mt-1 text-sm whitespace-pre-wrap [overflow-wrap:anywhere] text-slate-700">
            {milestone.description || 'No description'}
          </p>
        </div>
      </div>
    </Card>
  );
}

function MilestoneActions({
  milestone,
  projectKey,
  onEdit,
}: {
  milestone: Milestone;
  projectKey: string;
  onEdit: () => void;
}) {
  const navigate = useNavigate();
  const update = useUpdateMilestone(milestone._id);
  const remove = useDeleteMilestone(milestone._id);
  const [isDeleteOpen, setDeleteOpen] = useState(false);
  const isClosed = Boolean(milestone.closedAt);
  const toggle = () =>
    update.mutate(
      { closed: !isClosed },
      {
        onSuccess: () => notify.success(isClosed ? 'Milestone reopened' : 'Milestone closed'),
        onError: (error) => notify.error(messageOf(error, 'Could not change the milestone')),
      },
    );
  return (
    <>
      <Button variant="secondary" icon={<Pencil className="size-4" aria-hidden="true" />} onClick={onEdit}>
        Edit
      </Button>
      <Button
        variant="secondary"
        isLoading={update.isPending}
        icon={
          isClosed ? (
            <RotateCcw className="size-4" aria-hidden="true" />
          ) : (
            <Lock className="size-4" aria-hidden="true" />
          )
        }
        onClick={toggle}
      >
        {isClosed ? 'Reopen milestone' : 'Close milestone'}
      </Button>
      <Button
        variant="danger"
        icon={<Trash2 className="size-4" aria-hidden="true" />}
        onClick={() => setDeleteOpen(true)}
      >
        Delete
      </Button>
      <ConfirmModal
        isOpen={isDeleteOpen}
        title="Delete this milestone?"
        confirmLabel="Delete milestone"
        isBusy={remove.isPending}
        onClose={() => setDeleteOpen(false)}
        onConfirm={() =>
          remove.mutate(undefined, {
            onSuccess: () => {
              notify.success(`Milestone ${milestone.name} deleted`);
              void navigate({ to: '/projects/$key/milestones', params: { key: projectKey } });
            },
            onError: (error) => {
              setDeleteOpen(false);
              notify.error(messageOf(error, 'Could not delete the milestone'));
            },
          })
        }
      >
        {milestone.progress.total > 0
          ? `“${milestone.name}” goes for good: its ${milestone.progress.total} ${milestone.progress.total === 1 ? 'bug leaves' : 'bugs leave'} it (their histories say so).`
          : `“${milestone.name}” goes for good; its history stays in the log.`}
      </ConfirmModal>
    </>
  );
}

function EditMilestone({ milestone, onDone }: { milestone: Milestone; onDone: () => void }) {
  const update = useUpdateMilestone(milestone._id);
  return (
    <Card className="mb-6 min-w-0">
      <CardHeader title="Edit milestone" />
      <div className="p-5">
        <MilestoneForm
          initial={milestone}
          submitLabel="Save milestone"
          isBusy={update.isPending}
          onCancel={onDone}
          onSubmit={async (draft) => {
            await update.mutateAsync(draft);
            notify.success('Milestone saved');
            onDone();
          }}
        />
      </div>
    </Card>
  );
}

function BurnupCard({
  milestone,
  asOf,
  onAsOf,
}: {
  milestone: Milestone;
  asOf: string;
  onAsOf: (day: string) => void;
}) {
  const inputId = useId();
  const burnup = useQuery(burnupQuery(milestone._id, asOf));
  const days = burnup.data?.days ?? [];
  return (
    <Card className="min-w-0" role="region" aria-label="Burn-up">
      <CardHeader
        title="Burn-up"
        subtitle="Bugs in the milestone (scope) and bugs closed, at the end of each day."
        action={
          <div className="flex shrink-0 flex-col items-end gap-1">
            <label htmlFor={inputId} className="text-xs font-medium text-slate-600">
              As of
            </label>
            <input
              id={inputId}
              type="date"
              value={asOf}
              max={new Date().toISOString().slice(0, 10)}
              onChange={(event) => onAsOf(event.target.value)}
              className={cx(controlClass(), 'h-9 w-40')}
            />
          </div>
        }
      />
      <div
        className={cx('p-4 transition-opacity sm:p-5', burnup.isFetching && burnup.isPlaceholderData && 'opacity-60')}
        aria-busy={(burnup.isFetching && burnup.isPlaceholderData) || undefined}
      >
        {burnup.isPending ? (
          <div style={{ height: CHART_HEIGHT }}>
            <Skeleton className="h-full w-full" />
          </div>
        ) : burnup.isError ? (
          <p role="alert" className="text-sm text-rose-600">
            {messageOf(burnup.error, 'Could not load the burn-up')}
          </p>
        ) : (
          <BurnupChart days={days} dueDate={milestone.dueDate} />
        )}
        {asOf ? (
          <p className="mt-2 flex items-center gap-1.5 text-xs text-slate-500">
            <CalendarDays className="size-3.5" aria-hidden="true" /> As it stood at the end of {formatDate(asOf)}.{' '}
            <button type="button" className="font-medium text-brand-700 hover:underline" onClick={() => onAsOf('')}>
              Show today
            </button>
          </p>
        ) : null}
      </div>
    </Card>
  );
}

function MilestoneBugs({
  bugs,
  isLoading,
  error,
  viewAs,
}: {
  bugs: Bug[];
  isLoading: boolean;
  error: string;
  viewAs: Role;
}) {
  const closed = useMemo(() => bugs.filter((bug) => bug.status === 'Closed').length, [bugs]);
  return (
    <Card className="min-w-0">
      <CardHeader
        title="Bugs"
        subtitle={isLoading ? undefined : `${bugs.length} in this milestone, ${closed} closed`}
      />
      {isLoading ? (
        <div className="space-y-2 p-5">
          <Skeleton className="h-10" />
          <Skeleton className="h-10" />
        </div>
      ) : error ? (
        <p role="alert" className="p-5 text-sm text-rose-600">
          {error}
        </p>
      ) : bugs.length === 0 ? (
        <p className="p-5 text-sm text-slate-500">No bugs planned yet. Plan one from its page (Planning, Milestone).</p>
      ) : (
        <ul className="divide-y divide-slate-100" aria-label="Bugs in this milestone">
          {bugs.map((bug) => (
            <li key={bug._id} className="flex min-w-0 flex-wrap items-center gap-x-3 gap-y-1 px-5 py-3">
              <Link
                to="/bugs/$number"
                params={{ number: bug.key ?? String(bug.number ?? bug._id) }}
                className="flex min-w-0 flex-1 basis-60 items-baseline gap-2 text-sm hover:underline"
              >
                <span className="shrink-0 font-mono text-xs font-semibold text-brand-700">{bug.key}</span>
                <span className="min-w-0 [overflow-wrap:anywhere] text-slate-800">{bugTitle(bug)}</span>
              </Link>
              <span className="flex flex-wrap items-center gap-2">
                <LabelChips labels={bug.labels} max={3} />
                <StatusBadge status={bug.status} viewAs={viewAs} />
              </span>
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}
