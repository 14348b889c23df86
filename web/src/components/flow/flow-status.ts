import { bugStatuses, statusDisplayNames } from '@bugtrail/domain/vocabulary';
import type { BugStatus } from '../../lib/types';

/** The statuses in the words of the admin's and auditor's screens (Pending, In Progress, Resolved), in the app's chart colours. */
export type FlowViewer = 'admin' | 'auditor';

export const flowStatuses = bugStatuses;

export const statusColors: Record<BugStatus, string> = {
  Open: '#8D51FF',
  'In Progress': '#00B8DB',
  Closed: '#7BCE00',
};

export function statusNames(viewAs: FlowViewer): Readonly<Record<BugStatus, string>> {
  return statusDisplayNames[viewAs];
}

/** CSV column names: the screen's words, snake_cased (pending, in_progress, resolved). */
export function statusColumn(status: BugStatus, viewAs: FlowViewer): string {
  return statusDisplayNames[viewAs][status].toLowerCase().replace(/\s+/g, '_');
}
