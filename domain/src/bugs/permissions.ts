import type { Actor } from '../core/event.js';
import { rolePermissions } from '../users/permissions.js';

/** What a permission needs to know of a bug (from its state or its read-model row). */
export type BugAccessFacts = Readonly<{
  reporterId: string;
  assigneeIds: readonly string[];
  deleted: boolean;
  /** Its project (absent where the caller knows it is not hidden from the actor). */
  projectId?: string;
}>;

/** Whether the bug is in a private project the actor is no member of: for them it does not exist (404). */
export function isHiddenFrom(actor: Pick<Actor, 'hiddenProjects'>, bug: Pick<BugAccessFacts, 'projectId'>): boolean {
  return bug.projectId !== undefined && (actor.hiddenProjects?.includes(bug.projectId) ?? false);
}

/**
 * The bugs a person may open, as a scope (api.md "Who sees what"): every bug, the bugs one
 * person reported, or the bugs assigned to one person. The one visibility rule: `canView`
 * below checks a bug against it in memory, and the bugs read model turns it into SQL
 * (projector's bugs/bug-visibility.ts), for every list, count, search, export and tool.
 */
export type BugScope =
  | Readonly<{ kind: 'all' }>
  | Readonly<{ kind: 'reporter'; id: string }>
  | Readonly<{ kind: 'assignee'; id: string }>;

/** Who may see which bugs: admins and auditors every bug; testers their own reports; developers the bugs assigned to them. */
export function visibleBugScope(actor: Pick<Actor, 'id' | 'role'>): BugScope {
  if (rolePermissions.readsEverything(actor)) return { kind: 'all' };
  if (actor.role === 'tester') return { kind: 'reporter', id: actor.id };
  return { kind: 'assignee', id: actor.id };
}

/**
 * The bugs whose rows a person's all-bugs list shows (`GET /api/bugs/all-viewable`): every
 * bug for testers (rows only: the detail stays `visibleBugScope`), else what they may open.
 */
export function listedBugScope(actor: Pick<Actor, 'id' | 'role'>): BugScope {
  return actor.role === 'tester' ? { kind: 'all' } : visibleBugScope(actor);
}

/** Whether a bug is in the scope (deleted or not: callers say what a deleted bug means). */
export function isInBugScope(scope: BugScope, bug: Pick<BugAccessFacts, 'reporterId' | 'assigneeIds'>): boolean {
  switch (scope.kind) {
    case 'all':
      return true;
    case 'reporter':
      return bug.reporterId === scope.id;
    case 'assignee':
      return bug.assigneeIds.includes(scope.id);
  }
}

/** Whether every bug of `inner` is in `outer` (whoever sees `outer` may list `inner` whole). */
export function coversBugScope(outer: BugScope, inner: BugScope): boolean {
  if (outer.kind === 'all') return true;
  return inner.kind === outer.kind && inner.id === outer.id;
}

/**
 * Everyone a person's scope may give the bug to, besides those who see every bug: its
 * reporter and its assignees (a live topic's audience, ADR 004).
 */
export function bugAudience(bug: Pick<BugAccessFacts, 'reporterId' | 'assigneeIds'>): string[] {
  return [bug.reporterId, ...bug.assigneeIds];
}

/**
 * api.md's "who sees what", as functions of (actor, bug). The server enforces them;
 * the web client uses the same functions only to hide what would be refused.
 */
export const bugPermissions = {
  /** Open the detail: a live bug in the actor's `visibleBugScope`. */
  canView(actor: Actor, bug: BugAccessFacts): boolean {
    if (bug.deleted || isHiddenFrom(actor, bug)) return false;
    return isInBugScope(visibleBugScope(actor), bug);
  },
  /** The audit history: like canView, and admins and auditors also for deleted bugs. */
  canViewHistory(actor: Actor, bug: BugAccessFacts): boolean {
    if (isHiddenFrom(actor, bug)) return false;
    if (rolePermissions.readsEverything(actor)) return true;
    return bugPermissions.canView(actor, bug);
  },
  /**
   * Hears of a bug's changes live (api.md "live topics"): those who see every bug, and
   * anyone in its audience before or after the change (`bugAudience`, so removals arrive too).
   */
  hearsOf(actor: Actor, audience: Readonly<{ ids: readonly string[] | null; isPublic: boolean }>): boolean {
    if (visibleBugScope(actor).kind === 'all' || audience.isPublic) return true;
    return audience.ids?.includes(actor.id) ?? false;
  },
  /** Hears that the list of every bug changed: whoever's all-bugs list shows bugs beyond their audiences. */
  hearsOfEveryBug(actor: Actor): boolean {
    return listedBugScope(actor).kind === 'all';
  },
  canReport(actor: Actor): boolean {
    return actor.role === 'admin' || actor.role === 'tester';
  },
  /** Edit details, assign, add links, delete: admin any; tester own reports. */
  canEdit(actor: Actor, bug: BugAccessFacts): boolean {
    if (bug.deleted) return false;
    if (actor.role === 'admin') return true;
    return actor.role === 'tester' && bug.reporterId === actor.id;
  },
  canDelete(actor: Actor, bug: BugAccessFacts): boolean {
    return bugPermissions.canEdit(actor, bug);
  },
  /** Change status and tick checklist items: admin any; developer assigned bugs. */
  canWorkOn(actor: Actor, bug: BugAccessFacts): boolean {
    if (bug.deleted) return false;
    if (actor.role === 'admin') return true;
    return actor.role === 'developer' && bug.assigneeIds.includes(actor.id);
  },
} as const;

export const bugMessages = {
  noPermissionToView: "You don't have permission to view this bug",
  notFound: 'Bug not found',
  notFoundOrForbidden: "Bug not found or you don't have permission to view it",
  titleRequired: 'Title is required',
  titleTooShort: 'Title must be at least 5 characters long',
  titleTooLong: 'Title cannot exceed 100 characters',
  descriptionRequired: 'Description is required',
  descriptionTooShort: 'Description must be at least 10 characters long',
  developerRequired: 'At least one developer must be assigned',
  dueDateInFuture: 'Due date must be in the future',
  dueDateRequired: 'Due date is required',
  moduleTooLong: 'Module name cannot exceed 50 characters',
  assignedRequired: 'Bug must be assigned to at least one developer',
  staleEdit: 'This bug was changed by someone else. Reload it and try again.',
} as const;
