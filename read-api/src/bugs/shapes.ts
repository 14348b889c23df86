import type { BugDto, Role } from '@bugtrail/domain';
import type { BugCounts } from '@bugtrail/projector';
import type { z } from 'zod';
import type { bugListRowSchema, dashboardSchema, statusSummarySchema } from './bugs.schemas.js';

/** Every spelling clients read (api.md): Open is also Pending, Closed also Resolved. */
export function statusSummary(counts: BugCounts): z.infer<typeof statusSummarySchema> {
  const open = counts.status.Open;
  const inProgress = counts.status['In Progress'];
  const closed = counts.status.Closed;
  return {
    all: open + inProgress + closed,
    open,
    inProgress,
    closed,
    openBugs: open,
    pendingBugs: open,
    inProgressBugs: inProgress,
    closedBugs: closed,
    resolvedBugs: closed,
  };
}

export function dashboardAnswer(role: Role, counts: BugCounts, recentBugs: BugDto[]): z.infer<typeof dashboardSchema> {
  const s = statusSummary(counts);
  const statistics = {
    totalBugs: s.all,
    openBugs: s.open,
    inProgressBugs: s.inProgress,
    closedBugs: s.closed,
    pendingBugs: s.open,
    resolvedBugs: s.closed,
  };
  return {
    statistics,
    ...(role === 'tester' ? { stats: statistics } : {}),
    charts: {
      bugDistribution: {
        Open: s.open,
        InProgress: s.inProgress,
        'In Progress': s.inProgress,
        Closed: s.closed,
        All: s.all,
      },
      bugSeverityLevels: {
        High: counts.severity.Critical,
        Medium: counts.severity.Major,
        Low: counts.severity.Minor,
      },
      bugPriorityLevels: { High: counts.priority.High, Medium: counts.priority.Medium, Low: counts.priority.Low },
    },
    recentBugs,
  };
}

/**
 * A bug someone else reported, as a tester's all-bugs list shows it (api.md "What testers see
 * of others' bugs"): no description, checklist or attachments (absent, not empty), names only.
 */
export function toListRow(bug: BugDto): z.infer<typeof bugListRowSchema> {
  return {
    _id: bug._id,
    number: bug.number,
    title: bug.title,
    status: bug.status,
    priority: bug.priority,
    severity: bug.severity,
    module: bug.module,
    createdAt: bug.createdAt,
    dueDate: bug.dueDate,
    createdBy: { _id: bug.createdBy._id, name: bug.createdBy.name },
    assignedTo: bug.assignedTo.map((user) => ({ _id: user._id, name: user.name })),
  };
}
