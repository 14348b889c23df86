import { assigneeNames, bugModule, bugName, bugTitle, formatDate, reporterName } from '../../lib/format';
import type { Bug, Role } from '../../lib/types';
import { PriorityBadge, SeverityBadge, StatusBadge } from '../ui/badge';
import { Modal } from '../ui/modal';
import { isOverdue } from './list-search';

/**
 * Another tester's bug as the All Bugs list may show it (api.md "What testers see of
 * others' bugs"): the row's fields, read-only, instead of a page that would answer 403.
 */
export function BugSummaryDialog({ bug, viewAs, onClose }: { bug: Bug | null; viewAs: Role; onClose: () => void }) {
  return (
    <Modal
      isOpen={bug !== null}
      onClose={onClose}
      title={bug ? `${bugName(bug)} ${bugTitle(bug)}`.trim() : ''}
      description="Reported by someone else: you can see its summary, not its details."
      size="sm"
    >
      {bug ? (
        <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 text-sm">
          <dt className="text-slate-500">Status</dt>
          <dd>
            <StatusBadge status={bug.status} viewAs={viewAs} />
          </dd>
          <dt className="text-slate-500">Priority</dt>
          <dd>
            <PriorityBadge priority={bug.priority} />
          </dd>
          <dt className="text-slate-500">Severity</dt>
          <dd>
            <SeverityBadge severity={bug.severity} />
          </dd>
          <dt className="text-slate-500">Module</dt>
          <dd className="text-slate-800">{bugModule(bug)}</dd>
          <dt className="text-slate-500">Reported by</dt>
          <dd className="text-slate-800">{reporterName(bug.createdBy)}</dd>
          <dt className="text-slate-500">Assigned to</dt>
          <dd className="text-slate-800">{assigneeNames(bug.assignedTo)}</dd>
          <dt className="text-slate-500">Due</dt>
          <dd className={isOverdue(bug) ? 'font-medium text-rose-700' : 'text-slate-800'}>
            {formatDate(bug.dueDate)}
            {isOverdue(bug) ? ' · Overdue' : ''}
          </dd>
          <dt className="text-slate-500">Reported</dt>
          <dd className="text-slate-800">{formatDate(bug.createdAt)}</dd>
        </dl>
      ) : null}
    </Modal>
  );
}
