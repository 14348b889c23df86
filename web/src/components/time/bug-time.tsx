import { useQuery } from '@tanstack/react-query';
import { Clock, Hourglass, Trash2, Workflow } from 'lucide-react';
import { type FormEvent, type ReactNode, useState } from 'react';
import { messageOf } from '../../lib/api';
import { projectStatesQuery } from '../../lib/fields';
import { formatDate } from '../../lib/format';
import { notify } from '../../lib/notify';
import { projectsQuery } from '../../lib/projects';
import { profileQuery } from '../../lib/session';
import {
  formatMinutes,
  parseDuration,
  timesheetQuery,
  todayIso,
  useDeleteWork,
  useEstimate,
  useLogWork,
  useSetState,
} from '../../lib/time';
import type { Bug } from '../../lib/types';
import { Button } from '../ui/button';
import { Card, CardHeader } from '../ui/card';
import { cx } from '../ui/cx';
import { controlClass, TextField } from '../ui/field';

/**
 * A bug's workflow state and time (issue 37): the state it is in (those who work on it move it to
 * another), its estimate against the time logged, the entries, and a form to log time for its
 * assigned developers and admins. The server decides who may do what; this only hides the forms.
 */
export function BugTime({ bug, isEditable = true }: { bug: Bug; isEditable?: boolean }) {
  const { data: user } = useQuery(profileQuery());
  const { data: projects } = useQuery(projectsQuery());
  const project = projects?.projects.find((p) => p._id === bug.projectId);
  // Admins; developers on the bugs assigned to them, and on every bug of a team project of theirs.
  const worksOn =
    isEditable &&
    !!user &&
    (user.role === 'admin' ||
      (user.role === 'developer' &&
        (bug.assignedTo.some((a) => a._id === user._id) ||
          (project?.access === 'team' && project.members.some((m) => m.user._id === user._id)))));
  const estimates = worksOn || (isEditable && user?.role === 'tester' && bug.createdBy._id === user._id);
  return (
    <Card className="min-w-0">
      <CardHeader title="Workflow and time" />
      <dl className="grid gap-5 p-5">
        <Line icon={<Workflow className="size-4" />} label="State">
          <StateLine bug={bug} canMove={worksOn} />
        </Line>
        <Line icon={<Hourglass className="size-4" />} label="Estimate">
          <EstimateLine bug={bug} canEdit={estimates} />
        </Line>
        <Line icon={<Clock className="size-4" />} label="Time spent">
          <SpentLine bug={bug} userId={user?._id} isAdmin={user?.role === 'admin'} />
        </Line>
      </dl>
      {worksOn ? <LogWorkForm bug={bug} /> : null}
    </Card>
  );
}

function Line({ icon, label, children }: { icon: ReactNode; label: string; children: ReactNode }) {
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

function StateLine({ bug, canMove }: { bug: Bug; canMove: boolean }) {
  const { data } = useQuery(projectStatesQuery(bug.projectId));
  const setState = useSetState(bug._id);
  const states = data?.states ?? [];
  const current = states.find((s) => s._id === bug.state?._id);
  if (!canMove || states.length === 0) {
    return (
      <span className="inline-flex items-center gap-2 font-medium">
        {current ? <Dot color={current.color} /> : null}
        {bug.state?.name ?? bug.status}
      </span>
    );
  }
  return (
    <select
      aria-label="State"
      value={bug.state?._id ?? ''}
      disabled={setState.isPending}
      onChange={(event) =>
        setState.mutate(event.target.value, {
          onSuccess: () => notify.success('State changed'),
          onError: (error) => notify.error(messageOf(error, 'Could not change the state')),
        })
      }
      className={cx(controlClass(), 'h-9 w-full')}
    >
      {states.map((state) => (
        <option key={state._id} value={state._id}>
          {state.name} ({state.category})
        </option>
      ))}
    </select>
  );
}

const Dot = ({ color }: { color: string }) => (
  <span className="size-2.5 shrink-0 rounded-full" style={{ backgroundColor: color }} aria-hidden="true" />
);

function EstimateLine({ bug, canEdit }: { bug: Bug; canEdit: boolean }) {
  const estimate = useEstimate(bug._id);
  const [draft, setDraft] = useState<string | null>(null);
  const shown = bug.estimate === null ? 'None' : `${bug.estimate}h`;
  if (!canEdit) return <span className="font-medium">{shown}</span>;
  if (draft === null) {
    return (
      <span className="flex items-center gap-2">
        <span className="font-medium">{shown}</span>
        <Button variant="ghost" size="sm" onClick={() => setDraft(bug.estimate === null ? '' : String(bug.estimate))}>
          {bug.estimate === null ? 'Estimate' : 'Change'}
        </Button>
      </span>
    );
  }
  const save = (event: FormEvent) => {
    event.preventDefault();
    const hours = draft.trim() === '' ? null : Number(draft.replace(',', '.'));
    estimate.mutate(hours, {
      onSuccess: () => setDraft(null),
      onError: (error) => notify.error(messageOf(error, 'Could not set the estimate')),
    });
  };
  return (
    <form onSubmit={save} className="flex items-center gap-2">
      <input
        aria-label="Estimate in hours"
        inputMode="decimal"
        value={draft}
        onChange={(event) => setDraft(event.target.value)}
        className={cx(controlClass(), 'h-9 w-24')}
        placeholder="Hours"
      />
      <Button type="submit" size="sm" isLoading={estimate.isPending}>
        Save
      </Button>
      <Button variant="ghost" size="sm" onClick={() => setDraft(null)}>
        Cancel
      </Button>
    </form>
  );
}

function SpentLine({ bug, userId, isAdmin }: { bug: Bug; userId: string | undefined; isAdmin: boolean }) {
  const { data } = useQuery(timesheetQuery({ bug: bug._id }));
  const remove = useDeleteWork(bug._id);
  const estimateMinutes = bug.estimate === null ? null : bug.estimate * 60;
  const share = estimateMinutes ? Math.min(1, bug.timeSpentMinutes / estimateMinutes) : null;
  const entries = [...(data?.entries ?? [])].reverse();
  return (
    <div className="grid gap-2">
      <span className="font-medium">
        {formatMinutes(bug.timeSpentMinutes)}
        {estimateMinutes ? <span className="font-normal text-slate-500"> of {bug.estimate}h estimated</span> : null}
      </span>
      {share !== null ? (
        <div
          role="progressbar"
          aria-label="Time spent of the estimate"
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={Math.round(share * 100)}
          className="h-1.5 overflow-hidden rounded-full bg-slate-200"
        >
          <div
            className={cx(
              'h-full rounded-full',
              bug.timeSpentMinutes > (estimateMinutes ?? 0) ? 'bg-rose-500' : 'bg-brand-500',
            )}
            style={{ width: `${share * 100}%` }}
          />
        </div>
      ) : null}
      {entries.length > 0 ? (
        <ul aria-label="Time logged" className="grid gap-1.5">
          {entries.map((entry) => (
            <li key={entry._id} className="flex items-start gap-2 text-xs text-slate-600">
              <span className="min-w-0 flex-1">
                <span className="font-medium text-slate-800">{formatMinutes(entry.minutes)}</span> by {entry.user.name},{' '}
                {formatDate(`${entry.on}T12:00:00`)}
                {entry.note ? <span className="block text-slate-500">{entry.note}</span> : null}
              </span>
              {entry.user._id === userId || isAdmin ? (
                <button
                  type="button"
                  aria-label={`Delete ${formatMinutes(entry.minutes)} logged on ${entry.on}`}
                  className="rounded p-0.5 text-slate-400 hover:bg-slate-100 hover:text-rose-600"
                  onClick={() =>
                    remove.mutate(entry._id, {
                      onError: (error) => notify.error(messageOf(error, 'Could not delete the entry')),
                    })
                  }
                >
                  <Trash2 className="size-3.5" />
                </button>
              ) : null}
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}

function LogWorkForm({ bug }: { bug: Bug }) {
  const log = useLogWork(bug._id);
  const [duration, setDuration] = useState('');
  const [on, setOn] = useState(todayIso);
  const [note, setNote] = useState('');
  const [error, setError] = useState<string | undefined>();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const minutes = parseDuration(duration);
    if (minutes === null) {
      setError('Say how long: 1h 30m, 1.5h or 90m');
      return;
    }
    setError(undefined);
    log.mutate(
      { minutes, on, note },
      {
        onSuccess: () => {
          notify.success(`${formatMinutes(minutes)} logged`);
          setDuration('');
          setNote('');
        },
        onError: (failure) => setError(messageOf(failure, 'Could not log the time')),
      },
    );
  };
  return (
    <form onSubmit={submit} noValidate className="grid gap-3 border-t border-slate-100 p-5" aria-label="Log time">
      <div className="grid grid-cols-2 gap-3">
        <TextField
          label="Time"
          name="duration"
          placeholder="1h 30m"
          value={duration}
          error={error}
          onChange={(event) => setDuration(event.target.value)}
        />
        <TextField
          label="Day"
          name="on"
          type="date"
          max={todayIso()}
          value={on}
          onChange={(event) => setOn(event.target.value)}
        />
      </div>
      <TextField
        label="Note"
        name="note"
        placeholder="What was done (optional)"
        value={note}
        maxLength={500}
        onChange={(event) => setNote(event.target.value)}
      />
      <div>
        <Button type="submit" size="sm" icon={<Clock className="size-4" />} isLoading={log.isPending}>
          Log time
        </Button>
      </div>
    </form>
  );
}
