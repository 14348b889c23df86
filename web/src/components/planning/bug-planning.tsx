import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { Flag, GitFork, ListTree } from 'lucide-react';
import { type FormEvent, type ReactNode, useEffect, useId, useState } from 'react';
import { messageOf } from '../../lib/api';
import { bugTitle, formatDate } from '../../lib/format';
import { notify } from '../../lib/notify';
import {
  canPlanBug,
  linkedName,
  milestonesQuery,
  subBugsQuery,
  useSetMilestone,
  useSetParent,
} from '../../lib/planning';
import { profileQuery } from '../../lib/session';
import type { Bug, Role } from '../../lib/types';
import { StatusBadge } from '../ui/badge';
import { Button } from '../ui/button';
import { Card, CardHeader } from '../ui/card';
import { cx } from '../ui/cx';
import { controlClass } from '../ui/field';
import { BugPicker } from './bug-picker';
import type { OnPlanningSaved } from './bug-relations';
import { ProgressMeter } from './progress-meter';

/**
 * Where a bug sits in the plan (api.md "Relations and sub-bugs", "Milestones"): its parent, its
 * sub-bugs and how many are done, and the milestone it is planned into; those who may edit the
 * bug change the parent and the milestone here.
 */
export function BugPlanning({
  bug,
  viewAs,
  isEditable = true,
  onSaved,
  className,
}: {
  bug: Bug;
  viewAs: Role;
  isEditable?: boolean;
  onSaved?: OnPlanningSaved | undefined;
  className?: string;
}) {
  const { data: user } = useQuery(profileQuery());
  const canEdit = isEditable && canPlanBug(user, bug);
  return (
    <Card className={cx('min-w-0', className)}>
      <CardHeader title="Planning" />
      <dl className="grid gap-5 p-5">
        <PlanLine icon={<GitFork className="size-4" />} label="Parent">
          <ParentLine bug={bug} viewAs={viewAs} canEdit={canEdit} onSaved={onSaved} />
        </PlanLine>
        <PlanLine icon={<ListTree className="size-4" />} label="Sub-bugs">
          <SubBugs bug={bug} viewAs={viewAs} />
        </PlanLine>
        <PlanLine icon={<Flag className="size-4" />} label="Milestone">
          <MilestoneLine bug={bug} canEdit={canEdit} onSaved={onSaved} />
        </PlanLine>
      </dl>
    </Card>
  );
}

function PlanLine({ icon, label, children }: { icon: ReactNode; label: string; children: ReactNode }) {
  return (
    <div className="grid grid-cols-[auto_minmax(0,1fr)] items-start gap-x-3">
      <span className="row-span-2 mt-0.5 text-slate-400" aria-hidden="true">
        {icon}
      </span>
      <dt className="text-xs font-medium tracking-wide text-slate-500 uppercase">{label}</dt>
      <dd className="mt-1 min-w-0 text-sm text-slate-900">{children}</dd>
    </div>
  );
}

function ParentLine({
  bug,
  viewAs,
  canEdit,
  onSaved,
}: {
  bug: Bug;
  viewAs: Role;
  canEdit: boolean;
  onSaved?: OnPlanningSaved | undefined;
}) {
  const save = useSetParent(bug._id);
  const [isPicking, setPicking] = useState(false);
  const [chosen, setChosen] = useState<Bug | null>(null);
  const [problem, setProblem] = useState('');
  const parent = bug.parent;
  const send = (parentId: string | null, done: string) =>
    save.mutate(parentId, {
      onSuccess: (answer) => {
        onSaved?.(answer);
        notify.success(done);
        setPicking(false);
        setChosen(null);
      },
      onError: (error) => {
        if (parentId) setProblem(messageOf(error, 'Could not set the parent'));
        else notify.error(messageOf(error, 'Could not remove the parent'));
      },
    });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!chosen) return setProblem('Pick the parent bug first');
    setProblem('');
    send(chosen._id, `Parent set to ${chosen.key ?? bugTitle(chosen)}`);
  };
  return (
    <div className="space-y-2">
      {parent ? (
        <p className="flex min-w-0 flex-wrap items-center gap-2">
          <Link
            to="/bugs/$number"
            params={{ number: linkedName(parent) }}
            className="min-w-0 underline decoration-slate-300 underline-offset-2 hover:decoration-current"
          >
            <span className="font-mono text-xs font-semibold text-brand-700">{linkedName(parent)}</span>{' '}
            <span className="[overflow-wrap:anywhere]">{bugTitle(parent)}</span>
          </Link>
          <StatusBadge status={parent.status} viewAs={viewAs} />
        </p>
      ) : (
        <p className="text-slate-500">None</p>
      )}
      {canEdit && !isPicking ? (
        <div className="flex flex-wrap gap-2">
          <Button variant="secondary" size="sm" onClick={() => setPicking(true)}>
            {parent ? 'Change parent' : 'Set parent'}
          </Button>
          {parent ? (
            <Button variant="ghost" size="sm" isLoading={save.isPending} onClick={() => send(null, 'Parent removed')}>
              Remove parent
            </Button>
          ) : null}
        </div>
      ) : null}
      {canEdit && isPicking ? (
        <form
          onSubmit={submit}
          aria-label="Set parent"
          className="space-y-3 rounded-lg border border-slate-200 bg-slate-50 p-3"
        >
          <BugPicker
            label="Parent bug"
            chosen={chosen}
            onChoose={(picked) => {
              setChosen(picked);
              setProblem('');
            }}
            exclude={[bug._id]}
            viewAs={viewAs}
          />
          {problem ? (
            <p role="alert" className="text-sm text-rose-600">
              {problem}
            </p>
          ) : null}
          <div className="flex flex-wrap justify-end gap-2">
            <Button variant="secondary" size="sm" onClick={() => setPicking(false)}>
              Cancel
            </Button>
            <Button type="submit" size="sm" isLoading={save.isPending}>
              Save parent
            </Button>
          </div>
        </form>
      ) : null}
    </div>
  );
}

/** "2 of 5 done" and the sub-bugs the reader may see (`GET /api/bugs?parent=`). */
function SubBugs({ bug, viewAs }: { bug: Bug; viewAs: Role }) {
  const { total, closed } = bug.subBugs ?? { total: 0, closed: 0 };
  const list = useQuery({ ...subBugsQuery(bug), enabled: total > 0 });
  if (total === 0) return <p className="text-slate-500">None</p>;
  const shown = list.data ?? [];
  return (
    <div className="space-y-2">
      <p className="font-medium">
        Sub-bugs: {closed} of {total} done
      </p>
      <ProgressMeter done={closed} total={total} label="Sub-bugs done" />
      {shown.length > 0 ? (
        <ul className="space-y-1" aria-label="Sub-bugs">
          {shown.map((sub) => (
            <li key={sub._id} className="flex min-w-0 items-center gap-2">
              <Link
                to="/bugs/$number"
                params={{ number: linkedName(sub) }}
                className="min-w-0 flex-1 truncate hover:underline"
              >
                <span className="font-mono text-xs font-semibold text-brand-700">{linkedName(sub)}</span>{' '}
                {bugTitle(sub)}
              </Link>
              <StatusBadge status={sub.status} viewAs={viewAs} />
            </li>
          ))}
        </ul>
      ) : null}
      {list.isSuccess && shown.length < total ? (
        <p className="text-xs text-slate-500">{total - shown.length} more not shown to you.</p>
      ) : null}
    </div>
  );
}

function MilestoneLine({
  bug,
  canEdit,
  onSaved,
}: {
  bug: Bug;
  canEdit: boolean;
  onSaved?: OnPlanningSaved | undefined;
}) {
  const milestones = useQuery(milestonesQuery(bug.projectId));
  const save = useSetMilestone(bug._id);
  const selectId = useId();
  const current = bug.milestoneId ?? '';
  const [draft, setDraft] = useState(current);
  // Someone else's change (live) or our own save moves the starting point.
  useEffect(() => setDraft(current), [current]);
  const all = milestones.data?.milestones ?? [];
  const planned = all.find((m) => m._id === bug.milestoneId);
  // Closed milestones take no new bugs; the one the bug is in stays listed.
  const options = all.filter((m) => !m.closedAt || m._id === bug.milestoneId);
  const projectKey = bug.project?.key;
  const shownName = planned ? (
    projectKey ? (
      <Link
        to="/projects/$key/milestones/$milestoneId"
        params={{ key: projectKey, milestoneId: planned._id }}
        className="font-medium text-brand-700 underline underline-offset-2 hover:decoration-2"
      >
        {planned.name}
      </Link>
    ) : (
      planned.name
    )
  ) : bug.milestoneId ? (
    <span className="text-slate-500">{milestones.isPending ? 'Loading…' : 'A milestone you cannot see'}</span>
  ) : (
    <span className="text-slate-500">None</span>
  );
  if (!canEdit)
    return (
      <p>
        {shownName}
        {planned?.dueDate ? <span className="text-slate-500"> · due {formatDate(planned.dueDate)}</span> : null}
      </p>
    );
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (draft === current) return;
    const target = all.find((m) => m._id === draft);
    save.mutate(draft || null, {
      onSuccess: (answer) => {
        onSaved?.(answer);
        notify.success(target ? `Planned into ${target.name}` : 'Taken out of its milestone');
      },
      onError: (error) => notify.error(messageOf(error, 'Could not change the milestone')),
    });
  };
  return (
    <div className="space-y-2">
      <p>
        {shownName}
        {planned?.dueDate ? <span className="text-slate-500"> · due {formatDate(planned.dueDate)}</span> : null}
      </p>
      <form onSubmit={submit} className="flex flex-wrap items-center gap-2">
        <label htmlFor={selectId} className="sr-only">
          Milestone
        </label>
        <select
          id={selectId}
          value={draft}
          onChange={(event) => setDraft(event.target.value)}
          disabled={milestones.isPending}
          className={cx(controlClass(), 'h-9 min-w-0 flex-1 basis-40')}
        >
          <option value="">No milestone</option>
          {options.map((m) => (
            <option key={m._id} value={m._id}>
              {m.name}
              {m.closedAt ? ' (closed)' : ''}
            </option>
          ))}
        </select>
        <Button
          type="submit"
          size="sm"
          variant={draft !== current ? 'primary' : 'secondary'}
          disabled={draft === current}
          isLoading={save.isPending}
        >
          Save milestone
        </Button>
      </form>
      {milestones.isSuccess && all.length === 0 && projectKey ? (
        <p className="text-xs text-slate-500">
          No milestones in {projectKey} yet.{' '}
          <Link
            to="/projects/$key/milestones"
            params={{ key: projectKey }}
            className="text-brand-700 underline underline-offset-2 hover:decoration-2"
          >
            Plan one
          </Link>
        </p>
      ) : null}
    </div>
  );
}
