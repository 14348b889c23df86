import { CalendarClock, CalendarDays, CheckCircle2, Circle, Layers, Link as LinkIcon, User } from 'lucide-react';
import type { ReactNode } from 'react';
import { bugModule, bugTitle, checklistProgress, formatDate, formatDateTime, reporterName } from '../lib/format';
import type { Bug, Role } from '../lib/types';
import { AsOfBug } from './bug-activity/as-of-bug';
import { BugCode } from './bug-code/bug-code';
import { BugFiles } from './bug-files/bug-files';
import { isOverdue } from './bug-list/list-search';
import { Avatar } from './ui/avatar';
import { PriorityBadge, SeverityBadge, StatusBadge } from './ui/badge';
import { Card, CardHeader } from './ui/card';
import { cx } from './ui/cx';

export function Meta({ icon, label, children }: { icon: ReactNode; label: string; children: ReactNode }) {
  return (
    // dt and dd sit right in the group, as a definition list wants them; the icon takes the first column.
    <div className="grid grid-cols-[auto_minmax(0,1fr)] items-start gap-x-3">
      <span className="row-span-2 mt-0.5 text-slate-400" aria-hidden="true">
        {icon}
      </span>
      <dt className="text-xs font-medium tracking-wide text-slate-500 uppercase">{label}</dt>
      <dd className="mt-0.5 text-sm font-medium break-words text-slate-900 [overflow-wrap:anywhere]">{children}</dd>
    </div>
  );
}

export function ProgressBar({ percent }: { percent: number }) {
  return (
    <div className="flex items-center gap-3">
      <div
        className="h-2 flex-1 overflow-hidden rounded-full bg-slate-100"
        role="progressbar"
        aria-valuenow={percent}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-label="Checklist progress"
      >
        <div className="h-full rounded-full bg-[#7BCE00] transition-all" style={{ width: `${percent}%` }} />
      </div>
      <span className="text-sm font-semibold text-slate-700">{percent}%</span>
    </div>
  );
}

type BugDetailProps = {
  bug: Bug;
  viewAs: Role;
  actions?: ReactNode;
  showCompletion?: boolean;
  /** Given, each step is a checkbox that ticks it in place (the assigned developer, admins). */
  onToggleItem?: ((index: number) => void) | undefined;
};

/**
 * The read-only bug page body shared by the tester and developer details, with the
 * bug's Activity below; with `?at=` it shows the bug as it was then (no actions).
 */
export function BugDetail(props: BugDetailProps) {
  return (
    <AsOfBug bug={props.bug} viewAs={props.viewAs}>
      {(bug, isPast) => (
        <BugDetailBody
          {...props}
          bug={bug}
          actions={isPast ? undefined : props.actions}
          onToggleItem={isPast ? undefined : props.onToggleItem}
        />
      )}
    </AsOfBug>
  );
}

function BugDetailBody({ bug, viewAs, actions, showCompletion, onToggleItem }: BugDetailProps) {
  const percent = checklistProgress(bug.checklist);
  return (
    <div className="grid grid-cols-1 gap-6 lg:grid-cols-3">
      <div className="min-w-0 space-y-6 lg:col-span-2">
        <Card className="p-6">
          <div className="flex flex-col gap-4 sm:flex-row sm:items-start sm:justify-between">
            <div className="min-w-0">
              {bug.number ? (
                <p className="mb-1 font-mono text-sm text-slate-500">
                  <span className="sr-only">Bug number </span>#{bug.number}
                </p>
              ) : null}
              <h1 className="text-2xl font-bold tracking-tight break-words text-slate-900 [overflow-wrap:anywhere]">
                {bugTitle(bug)}
              </h1>
              <div className="mt-3 flex flex-wrap gap-2">
                <StatusBadge status={bug.status} viewAs={viewAs} />
                <PriorityBadge priority={bug.priority} />
                <SeverityBadge severity={bug.severity} />
              </div>
            </div>
            {actions ? <div className="flex shrink-0 flex-wrap gap-2">{actions}</div> : null}
          </div>
          <h2 className="mt-8 text-sm font-semibold text-slate-900">Description</h2>
          <p className="mt-2 text-sm leading-6 break-words whitespace-pre-wrap text-slate-600 [overflow-wrap:anywhere]">
            {bug.description || 'N/A'}
          </p>
        </Card>
        <Card>
          <CardHeader
            title="Steps to Reproduce"
            subtitle={`${bug.checklist.filter((item) => item.completed).length} of ${bug.checklist.length} completed`}
          />
          <div className="space-y-4 p-5">
            <ProgressBar percent={percent} />
            {bug.checklist.length === 0 ? (
              <p className="text-sm text-slate-500">No checklist items</p>
            ) : (
              <ol className="space-y-2">
                {bug.checklist.map((item, index) => (
                  <li
                    key={item._id ?? index}
                    className="flex items-start gap-3 rounded-lg border border-slate-100 px-3 py-2.5"
                  >
                    {onToggleItem ? (
                      <input
                        type="checkbox"
                        checked={item.completed}
                        onChange={() => onToggleItem(index)}
                        aria-label={`${item.completed ? 'Untick' : 'Tick'} ${item.text}`}
                        className="mt-0.5 size-4 shrink-0 accent-lime-600"
                      />
                    ) : item.completed ? (
                      <CheckCircle2 className="mt-0.5 size-4 shrink-0 text-lime-600" aria-label="Completed" />
                    ) : (
                      <Circle className="mt-0.5 size-4 shrink-0 text-slate-300" aria-label="Not completed" />
                    )}
                    <div className="min-w-0 flex-1">
                      <p
                        className={cx(
                          'text-sm [overflow-wrap:anywhere]',
                          item.completed ? 'text-slate-500 line-through' : 'text-slate-800',
                        )}
                      >
                        {item.text}
                      </p>
                      {showCompletion && item.completed ? (
                        <p className="mt-0.5 text-xs text-slate-500">
                          Completed by {item.completedBy?.name ?? 'N/A'} on {formatDateTime(item.completedAt)}
                        </p>
                      ) : null}
                    </div>
                  </li>
                ))}
              </ol>
            )}
          </div>
        </Card>
      </div>
      <div className="min-w-0 space-y-6">
        <Card className="p-5">
          <dl className="grid gap-4">
            <Meta icon={<User className="size-4" />} label="Reported by">
              {reporterName(bug.createdBy)}
            </Meta>
            <Meta icon={<CalendarDays className="size-4" />} label="Reported on">
              {formatDate(bug.createdAt)}
            </Meta>
            <Meta icon={<CalendarClock className="size-4" />} label="Due date">
              {isOverdue(bug) ? (
                <span className="text-rose-700">{formatDate(bug.dueDate)} · Overdue</span>
              ) : (
                formatDate(bug.dueDate)
              )}
            </Meta>
            <Meta icon={<Layers className="size-4" />} label="Module">
              {bugModule(bug)}
            </Meta>
          </dl>
        </Card>
        <Card>
          <CardHeader title="Assigned To" />
          <ul className="space-y-3 p-5">
            {bug.assignedTo.length === 0 ? (
              <li className="text-sm text-slate-500">Unassigned</li>
            ) : (
              bug.assignedTo.map((user) => (
                <li key={user._id} className="flex items-center gap-3">
                  <Avatar user={user} size="sm" />
                  <span className="text-sm font-medium text-slate-800">{user.name}</span>
                </li>
              ))
            )}
          </ul>
        </Card>
        <Card>
          <CardHeader title="Attachments" />
          <ul className="space-y-2 p-5">
            {bug.attachments.length === 0 ? (
              <li className="text-sm text-slate-500">No attachments</li>
            ) : (
              bug.attachments.map((link) => (
                <li key={link} className="flex items-center gap-2 text-sm">
                  <LinkIcon className="size-4 shrink-0 text-slate-400" />
                  <a
                    href={link}
                    target="_blank"
                    rel="noreferrer noopener"
                    className="min-w-0 truncate text-brand-700 hover:underline"
                  >
                    {link}
                  </a>
                </li>
              ))
            )}
          </ul>
        </Card>
        <BugFiles bug={bug} />
        <BugCode bug={bug} />
      </div>
    </div>
  );
}
