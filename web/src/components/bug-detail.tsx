import { CheckCircle2, Circle } from 'lucide-react';
import { type ReactNode, useEffect, useState } from 'react';
import { bugTitle, checklistProgress, formatDateTime } from '../lib/format';
import type { Bug, Role } from '../lib/types';
import { AsOfBug } from './bug-activity/as-of-bug';
import { BugDetailSidebar } from './bug-detail-sidebar';
import { BugNames } from './bug-names';
import { BugLabels } from './labels/bug-labels';
import { BugPlanning } from './planning/bug-planning';
import { BugRelations } from './planning/bug-relations';
import { PlanningNotices } from './planning/planning-notices';
import { BugSlaCard } from './time/bug-sla';
import { BugTime } from './time/bug-time';
import { PriorityBadge, SeverityBadge, StatusBadge } from './ui/badge';
import { Card, CardHeader } from './ui/card';
import { cx } from './ui/cx';

/**
 * A step's tick box. It shows the new tick in the same render as the click: the saved checklist
 * arrives a moment later (the optimistic patch waits for in-flight reads to be cancelled), and a
 * controlled box would jump back until then. It follows the saved value whenever that changes,
 * so a refused save puts it back.
 */
export function StepCheckbox({
  item,
  onToggle,
  disabled,
}: {
  item: { completed: boolean; text: string };
  onToggle: () => void;
  disabled?: boolean;
}) {
  const [shown, setShown] = useState(item.completed);
  useEffect(() => setShown(item.completed), [item.completed]);
  return (
    <input
      type="checkbox"
      checked={shown}
      disabled={disabled}
      onChange={() => {
        setShown(!shown);
        onToggle();
      }}
      aria-label={`${shown ? 'Untick' : 'Tick'} ${item.text}`}
      className="mt-0.5 size-4 shrink-0 accent-lime-600"
    />
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
          isPast={isPast}
          bug={bug}
          actions={isPast ? undefined : props.actions}
          onToggleItem={isPast ? undefined : props.onToggleItem}
        />
      )}
    </AsOfBug>
  );
}

function BugDetailBody({
  bug,
  viewAs,
  actions,
  showCompletion,
  onToggleItem,
  isPast,
}: BugDetailProps & { isPast: boolean }) {
  const percent = checklistProgress(bug.checklist);
  const isEditable = !isPast && viewAs !== 'auditor';
  return (
    <div className="grid grid-cols-1 gap-6 lg:grid-cols-3">
      <div className="min-w-0 space-y-6 lg:col-span-2">
        <Card className="p-6">
          <div className="flex flex-col gap-4 sm:flex-row sm:items-start sm:justify-between">
            <div className="min-w-0">
              <BugNames bug={bug} className="mb-1" />
              <h1 className="text-2xl font-bold tracking-tight break-words text-slate-900 [overflow-wrap:anywhere]">
                {bugTitle(bug)}
              </h1>
              <div className="mt-3 flex flex-wrap gap-2">
                <StatusBadge status={bug.status} viewAs={viewAs} />
                <PriorityBadge priority={bug.priority} />
                <SeverityBadge severity={bug.severity} />
              </div>
              <PlanningNotices bug={bug} className="mt-3" />
              <BugLabels bug={bug} isEditable={isEditable} className="mt-3" />
            </div>
            {actions ? <div className="flex min-w-0 flex-wrap gap-2 sm:max-w-sm sm:justify-end">{actions}</div> : null}
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
                      <StepCheckbox item={item} onToggle={() => onToggleItem(index)} />
                    ) : item.completed ? (
                      <CheckCircle2 className="mt-0.5 size-4 shrink-0 text-lime-600" aria-label="Completed" />
                    ) : (
                      <Circle className="mt-0.5 size-4 shrink-0 text-slate-300" aria-label="Not completed" />
                    )}
                    <ChecklistItemText item={item} showCompletion={showCompletion} />
                  </li>
                ))}
              </ol>
            )}
          </div>
        </Card>
        <BugRelations bug={bug} viewAs={viewAs} isEditable={isEditable} />
      </div>
      <BugDetailSidebar
        bug={bug}
        planning={
          <>
            <BugPlanning bug={bug} viewAs={viewAs} isEditable={isEditable} />
            <BugTime bug={bug} isEditable={isEditable} />
            <BugSlaCard bug={bug} />
          </>
        }
      />
    </div>
  );
}

/** A checklist step's text, struck through when done, with who completed it and when. */
export function ChecklistItemText({
  item,
  showCompletion,
}: {
  item: Bug['checklist'][number];
  showCompletion?: boolean | undefined;
}) {
  return (
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
  );
}
