import type { UserRef } from '../../lib/types';
import type { FlowGroup } from './flow-types';

/**
 * How the page names a group and its values: assignees and projects by name (`people` holds both,
 * by id), a missing value as None/Unassigned.
 */

export const groupLabels: Record<FlowGroup, string> = {
  severity: 'Severity',
  priority: 'Priority',
  module: 'Module',
  assignee: 'Assignee',
  project: 'Project',
};

export function groupKeyLabel(group: FlowGroup, key: string | null, people: ReadonlyMap<string, UserRef>): string {
  if (group === 'assignee') {
    if (key === null) return 'Unassigned';
    return people.get(key)?.name ?? `User ${key.slice(-6)}`;
  }
  if (group === 'project') return key === null ? 'None' : (people.get(key)?.name ?? `Project ${key.slice(-6)}`);
  return key?.trim() ? key : 'None';
}

/** The CSV columns for a group's key: its words, and for assignees the id as well. */
export function groupCsvHeader(group: FlowGroup): string[] {
  return group === 'assignee' || group === 'project' ? [group, `${group}_id`] : [group];
}

export function groupCsvCells(group: FlowGroup, key: string | null, people: ReadonlyMap<string, UserRef>): string[] {
  const label = groupKeyLabel(group, key, people);
  return group === 'assignee' || group === 'project' ? [label, key ?? ''] : [key === null ? '' : label];
}

/** Distinct colours for group values (scatter points). */
const palette = ['#8D51FF', '#00B8DB', '#7BCE00', '#F59E0B', '#EF4444', '#6366F1', '#14B8A6', '#EC4899'] as const;
const fixed: Record<string, string> = {
  Critical: '#EF4444',
  Major: '#F59E0B',
  Minor: '#00B8DB',
  High: '#EF4444',
  Medium: '#F59E0B',
  Low: '#00B8DB',
};

export function groupColor(group: FlowGroup, key: string | null, index: number): string {
  if (key === null) return '#94A3B8';
  if ((group === 'severity' || group === 'priority') && fixed[key]) return fixed[key];
  return palette[index % palette.length] ?? palette[0];
}
