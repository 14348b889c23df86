import { CalendarClock, Layers, Trash2 } from 'lucide-react';
import { assigneeNames, bugModule, bugName, bugTitle, formatDate } from '../lib/format';
import type { Bug, Role } from '../lib/types';
import { isOverdue } from './bug-list/list-search';
import { LabelChips } from './labels/label-chip';
import { AvatarStack } from './ui/avatar';
import { PriorityBadge, SeverityBadge, StatusBadge } from './ui/badge';

export function BugCard({
  bug,
  viewAs,
  onOpen,
  onDelete,
}: {
  bug: Bug;
  viewAs: Role;
  onOpen: () => void;
  onDelete?: () => void;
}) {
  return (
    <article className="group relative flex min-w-0 flex-col rounded-xl border border-slate-200 bg-white p-5 shadow-xs transition hover:-translate-y-0.5 hover:border-brand-200 hover:shadow-md has-focus-visible:ring-2 has-focus-visible:ring-brand-500">
      <div className="flex items-start justify-between gap-3">
        <div className="flex items-center gap-2">
          {bugName(bug) ? (
            <span className="font-mono text-xs text-slate-500" title={bug.number ? `#${bug.number}` : undefined}>
              {bugName(bug)}
            </span>
          ) : null}
          <StatusBadge status={bug.status} viewAs={viewAs} />
        </div>
        {onDelete ? (
          <button
            type="button"
            onClick={onDelete}
            aria-label={`Delete ${bugTitle(bug)}`}
            className="relative z-10 -mt-1 -mr-1 rounded-lg p-1.5 text-slate-400 hover:bg-rose-50 hover:text-rose-600"
          >
            <Trash2 className="size-4" />
          </button>
        ) : null}
      </div>
      <h3 className="mt-3 line-clamp-2 text-base font-semibold wrap-anywhere text-slate-900">
        <button
          type="button"
          onClick={onOpen}
          className="max-w-full text-left wrap-anywhere after:absolute after:inset-0 focus:outline-none"
        >
          {bugTitle(bug)}
        </button>
      </h3>
      <p className="mt-1.5 line-clamp-2 flex-1 text-sm wrap-anywhere text-slate-500">{bug.description}</p>
      <div className="mt-4 flex flex-wrap gap-1.5">
        <PriorityBadge priority={bug.priority} />
        <SeverityBadge severity={bug.severity} />
      </div>
      <LabelChips labels={bug.labels} max={4} className="mt-2" />
      <div className="mt-4 flex items-center justify-between gap-3 border-t border-slate-100 pt-4 text-xs text-slate-500">
        <div className="flex min-w-0 flex-col gap-1">
          <span className="flex min-w-0 items-center gap-1.5 wrap-anywhere">
            <Layers className="size-3.5 shrink-0" /> {bugModule(bug)}
          </span>
          <span className="flex items-center gap-1.5">
            <CalendarClock className="size-3.5" /> Due {formatDate(bug.dueDate)}
            {isOverdue(bug) ? <span className="font-medium text-rose-700">· Overdue</span> : null}
          </span>
        </div>
        {bug.assignedTo.length > 0 ? (
          <AvatarStack users={bug.assignedTo} size="xs" />
        ) : (
          <span>{assigneeNames(bug.assignedTo)}</span>
        )}
      </div>
    </article>
  );
}
