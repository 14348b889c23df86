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

/** Whether the bug is in a team project the actor is a member of (api.md "Projects": they work on all of it). */
export function isTeamBugOf(actor: Pick<Actor, 'teamProjects'>, bug: Pick<BugAccessFacts, 'projectId'>): boolean {
  return bug.projectId !== undefined && (actor.teamProjects?.includes(bug.projectId) ?? false);
}

/**
 * The bugs a person may open, as a scope (api.md "Who sees what"): every bug, the bugs one
 * person reported, or the bugs assigned to one person; for the last two, also every bug of the
 * team projects they are a member of (`teamProjects`, api.md "Projects"). The one visibility
 * rule: `canView` below checks a bug against it in memory, and the bugs read model turns it
 * into SQL (projector's bugs/bug-visibility.ts), for every list, count, search, export and tool.
 */
export type BugScope =
  | Readonly<{ kind: 'all' }>
  | Readonly<{ kind: 'reporter'; id: string; teamProjects?: readonly string[] }>
  | Readonly<{ kind: 'assignee'; id: string; teamProjects?: readonly string[] }>;

/**
 * Who may see which bugs: admins and auditors every bug; testers their own reports; developers
 * the bugs assigned to them; both, every bug of their team projects.
 */
export function visibleBugScope(actor: Pick<Actor, 'id' | 'role' | 'teamProjects'>): BugScope {
  if (rolePermissions.readsEverything(actor)) return { kind: 'all' };
  const team = actor.teamProjects?.length ? { teamProjects: actor.teamProjects } : {};
  if (actor.role === 'tester') return { kind: 'reporter', id: actor.id, ...team };
  return { kind: 'assignee', id: actor.id, ...team };
}

/** The scope's own person only, without their team projects (what the counters count per person). */
export function personalScope(scope: BugScope): BugScope {
  return scope.kind === 'all' ? scope : { kind: scope.kind, id: scope.id };
}

/**
 * The bugs whose rows a person's all-bugs list shows (`GET /api/bugs/all-viewable`): every
 * bug for testers (rows only: the detail stays `visibleBugScope`), else what they may open.
 */
export function listedBugScope(actor: Pick<Actor, 'id' | 'role' | 'teamProjects'>): BugScope {
  return actor.role === 'tester' ? { kind: 'all' } : visibleBugScope(actor);
}

/** Whether a bug is in the scope (deleted or not: callers say what a deleted bug means). */
export function isInBugScope(
  scope: BugScope,
  bug: Pick<BugAccessFacts, 'reporterId' | 'assigneeIds' | 'projectId'>,
): boolean {
  switch (scope.kind) {
    case 'all':
      return true;
    case 'reporter':
      return bug.reporterId === scope.id || isTeamBugOf(scope, bug);
    case 'assignee':
      return bug.assigneeIds.includes(scope.id) || isTeamBugOf(scope, bug);
  }
}

/** Whether every bug of `inner` is in `outer` (whoever sees `outer` may list `inner` whole). */
export function coversBugScope(outer: BugScope, inner: BugScope): boolean {
  if (outer.kind === 'all') return true;
  if (inner.kind === 'all' || inner.kind !== outer.kind || inner.id !== outer.id) return false;
  return (inner.teamProjects ?? []).every((id) => outer.teamProjects?.includes(id));
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
  hearsOf(
    actor: Actor,
    audience: Readonly<{ ids: readonly string[] | null; isPublic: boolean; projects?: readonly string[] | null }>,
  ): boolean {
    if (visibleBugScope(actor).kind === 'all' || audience.isPublic) return true;
    if (audience.projects?.some((projectId) => isTeamBugOf(actor, { projectId }))) return true;
    return audience.ids?.includes(actor.id) ?? false;
  },
  /**
   * Hears that the list of every bug changed: whoever's all-bugs list shows bugs beyond their
   * audiences; and a team project's members, of a change among its bugs (`projects`).
   */
  hearsOfEveryBug(actor: Actor, projects?: readonly string[] | null): boolean {
    if (listedBugScope(actor).kind === 'all') return true;
    return projects?.some((projectId) => isTeamBugOf(actor, { projectId })) ?? false;
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
  /** Change status and tick checklist items: admin any; developer assigned bugs, and any bug of their team projects. */
  canWorkOn(actor: Actor, bug: BugAccessFacts): boolean {
    if (bug.deleted || isHiddenFrom(actor, bug)) return false;
    if (actor.role === 'admin') return true;
    return actor.role === 'developer' && (bug.assigneeIds.includes(actor.id) || isTeamBugOf(actor, bug));
  },
  /**
   * Close or reopen (Closed → Open) their own report in a team project they are a member of
   * (api.md "Projects": reporters verify the fix).
   */
  canCloseOrReopen(actor: Actor, bug: BugAccessFacts, from: string, to: string): boolean {
    if (bug.deleted || bug.reporterId !== actor.id || !isTeamBugOf(actor, bug) || from === to) return false;
    return to === 'Closed' || (from === 'Closed' && to === 'Open');
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
