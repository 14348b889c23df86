import { bugStatuses } from '@bugtrail/domain/vocabulary';
import { Check, ChevronDown } from 'lucide-react';
import { useId } from 'react';
import { ProgressBar } from '../../../components/bug-detail';
import { PriorityBadge, SeverityBadge, StatusBadge } from '../../../components/ui/badge';
import { cx } from '../../../components/ui/cx';
import { bugTitle, checklistProgress, formatDate, statusLabel } from '../../../lib/format';
import { toggleChecklistItem, useUpdateChecklist, useUpdateStatus } from '../../../lib/mutations';
import type { Bug, User } from '../../../lib/types';

/**
 * A row of the developer's Update Bug Status page: one bug, folded or open (its status
 * buttons, description and checklist to tick); the list keys move between the toggles
 * (`data-bug-row`). The row a deep link names stays highlighted.
 */
export function BugRow({
  index,
  measure,
  bug,
  user,
  isExpanded,
  isLinked,
  onToggle,
  onActivate,
}: {
  index: number;
  measure: (element: Element | null) => void;
  bug: Bug;
  user: User | undefined;
  isExpanded: boolean;
  isLinked: boolean;
  onToggle: () => void;
  onActivate: () => void;
}) {
  const panelId = useId();
  const updateStatus = useUpdateStatus();
  const updateChecklist = useUpdateChecklist(user ?? { _id: '', name: '' });
  const done = bug.checklist.filter((item) => item.completed).length;
  return (
    <li
      ref={measure}
      data-index={index}
      data-highlighted={isLinked || undefined}
      className={cx(
        // Each row's own border, so a row measures the same wherever the window starts.
        index > 0 && 'border-t border-slate-100',
        isLinked && 'bg-brand-50/50 ring-2 ring-brand-300 ring-inset',
      )}
    >
      <button
        type="button"
        data-bug-row={bug._id}
        onClick={onToggle}
        onFocus={onActivate}
        aria-expanded={isExpanded}
        aria-controls={panelId}
        className="flex w-full scroll-mt-20 items-center gap-4 px-5 py-4 text-left hover:bg-slate-50 focus-visible:-outline-offset-2"
      >
        <div className="min-w-0 flex-1">
          <p className="truncate font-semibold text-slate-900">{bugTitle(bug)}</p>
          <p className="mt-0.5 text-xs text-slate-600">Due {formatDate(bug.dueDate)}</p>
        </div>
        <div className="hidden gap-1.5 sm:flex">
          <PriorityBadge priority={bug.priority} />
          <SeverityBadge severity={bug.severity} />
        </div>
        <StatusBadge status={bug.status} viewAs="developer" />
        <ChevronDown
          className={cx('size-5 shrink-0 text-slate-400 transition', isExpanded && 'rotate-180')}
          aria-hidden="true"
        />
      </button>
      {isExpanded ? (
        <div
          id={panelId}
          className="grid grid-cols-1 gap-6 border-t border-slate-100 bg-slate-50/60 px-5 py-5 lg:grid-cols-2"
        >
          <div>
            <p className="text-sm font-semibold text-slate-900">Status</p>
            {/* biome-ignore lint/a11y/useSemanticElements: a segmented control, not a form section */}
            <div
              className="mt-3 inline-flex rounded-lg bg-white p-1 ring-1 ring-slate-200"
              role="group"
              aria-label="Set status"
            >
              {bugStatuses.map((status) => {
                const isCurrent = bug.status === status;
                return (
                  <button
                    key={status}
                    type="button"
                    disabled={isCurrent || updateStatus.isPending}
                    aria-pressed={isCurrent}
                    onClick={() => updateStatus.mutate({ id: bug._id, status })}
                    className={cx(
                      'rounded-md px-3.5 py-1.5 text-sm font-medium transition',
                      isCurrent
                        ? 'bg-brand-600 text-white shadow-sm'
                        : 'text-slate-600 hover:bg-slate-100 disabled:opacity-60',
                    )}
                  >
                    {statusLabel(status, 'developer')}
                  </button>
                );
              })}
            </div>
            <p className="mt-4 text-sm leading-6 text-slate-600">{bug.description}</p>
          </div>
          <div>
            <div className="flex items-center justify-between">
              <p className="text-sm font-semibold text-slate-900">Checklist</p>
              <p className="text-sm text-slate-500">
                {done} of {bug.checklist.length} completed
              </p>
            </div>
            <div className="mt-3">
              <ProgressBar percent={checklistProgress(bug.checklist)} />
            </div>
            {bug.checklist.length === 0 ? (
              <p className="mt-3 text-sm text-slate-500">No checklist items</p>
            ) : (
              <ul className="mt-3 space-y-1.5">
                {bug.checklist.map((item, index) => (
                  <li key={item._id ?? index}>
                    <label className="flex cursor-pointer items-start gap-3 rounded-lg bg-white px-3 py-2.5 ring-1 ring-slate-200 focus-within:ring-2 focus-within:ring-brand-300 hover:ring-brand-200">
                      <input
                        type="checkbox"
                        className="sr-only"
                        checked={item.completed}
                        onChange={() =>
                          user &&
                          updateChecklist.mutate({
                            id: bug._id,
                            checklist: toggleChecklistItem(bug.checklist, index, user, new Date()),
                          })
                        }
                      />
                      <span
                        aria-hidden="true"
                        className={cx(
                          'mt-0.5 flex size-4 shrink-0 items-center justify-center rounded border',
                          item.completed ? 'border-lime-600 bg-lime-600 text-white' : 'border-slate-300 bg-white',
                        )}
                      >
                        {item.completed ? <Check className="size-3" strokeWidth={3} /> : null}
                      </span>
                      <span
                        className={cx('text-sm', item.completed ? 'text-slate-500 line-through' : 'text-slate-800')}
                      >
                        {item.text}
                      </span>
                    </label>
                  </li>
                ))}
              </ul>
            )}
          </div>
        </div>
      ) : null}
    </li>
  );
}
