import type { Role } from '../core/event.js';

/**
 * A bug's words (statuses, priorities, severities) and how each role's screens show
 * them. No schema library here: the browser loads this through
 * `@bugtrail/domain/vocabulary`, and `bug.schemas.ts` builds its zod enums from it.
 */
export const bugStatuses = ['Open', 'In Progress', 'Closed'] as const;
export const priorities = ['Low', 'Medium', 'High'] as const;
export const severities = ['Minor', 'Major', 'Critical'] as const;
export type BugStatus = (typeof bugStatuses)[number];
export type Priority = (typeof priorities)[number];
export type Severity = (typeof severities)[number];

/** A new bug's values, and what a screen shows when one is missing (spec sections 3 and 9). */
export const bugDefaults = {
  status: 'Open',
  priority: 'Medium',
  severity: 'Minor',
} as const satisfies Readonly<{ status: BugStatus; priority: Priority; severity: Severity }>;

/**
 * Spec section 4: admin and developer screens show Open as Pending and Closed as
 * Resolved (auditor screens too: they are the admin's pages, read-only); tester
 * screens show the stored words. Input accepts every spelling (`statusFromInput`),
 * so a screen may send the word it shows.
 */
export const statusDisplayNames = {
  admin: { Open: 'Pending', 'In Progress': 'In Progress', Closed: 'Resolved' },
  developer: { Open: 'Pending', 'In Progress': 'In Progress', Closed: 'Resolved' },
  tester: { Open: 'Open', 'In Progress': 'In Progress', Closed: 'Closed' },
  auditor: { Open: 'Pending', 'In Progress': 'In Progress', Closed: 'Resolved' },
} as const satisfies Readonly<Record<Role, Readonly<Record<BugStatus, string>>>>;

export type StatusDisplayName<R extends Role = Role> = (typeof statusDisplayNames)[R][BugStatus];

/** How a role's screens show a status; without a role, as admin and developer screens do. */
export function statusDisplayName(status: BugStatus): StatusDisplayName<'admin'>;
export function statusDisplayName<R extends Role>(status: BugStatus, role: R): StatusDisplayName<R>;
export function statusDisplayName(status: BugStatus, role: Role = 'admin'): StatusDisplayName {
  return statusDisplayNames[role][status];
}

/** A role's status words in workflow order: its tabs, filters and status selectors. */
export function statusDisplayNamesFor<R extends Role>(role: R): readonly StatusDisplayName<R>[] {
  return bugStatuses.map((status) => statusDisplayName(status, role));
}

/** The developer dashboard's 'Bugs by Priority' chart labels High Critical, Medium Major, Low Minor (spec section 2). */
export const developerPriorityChartLabels = {
  High: 'Critical',
  Medium: 'Major',
  Low: 'Minor',
} as const satisfies Readonly<Record<Priority, Severity>>;
