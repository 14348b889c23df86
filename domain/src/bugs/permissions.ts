import type { Actor } from '../core/event.js';
import { rolePermissions } from '../users/permissions.js';

/** What a permission needs to know of a bug (from its state or its read-model row). */
export type BugAccessFacts = Readonly<{ reporterId: string; assigneeIds: readonly string[]; deleted: boolean }>;

/**
 * api.md's "who sees what", as functions of (actor, bug). The server enforces them;
 * the web client uses the same functions only to hide what would be refused.
 */
export const bugPermissions = {
  /** Open the detail: admin and auditor any; tester own reports; developer assigned bugs. */
  canView(actor: Actor, bug: BugAccessFacts): boolean {
    if (bug.deleted) return false;
    if (rolePermissions.readsEverything(actor)) return true;
    if (actor.role === 'tester') return bug.reporterId === actor.id;
    return bug.assigneeIds.includes(actor.id);
  },
  /** The audit history: like canView, and admins and auditors also for deleted bugs. */
  canViewHistory(actor: Actor, bug: BugAccessFacts): boolean {
    if (rolePermissions.readsEverything(actor)) return true;
    return bugPermissions.canView(actor, bug);
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
