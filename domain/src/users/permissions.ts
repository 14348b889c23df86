import type { Actor, Role } from '../core/event.js';

/**
 * What a role may do across every feature (api.md "Who sees what", "The auditor role").
 * Per-object rules (whose bug, which chat) stay with their aggregates; these are the
 * role-wide ones the read side scopes by and the write side refuses by.
 */
export const rolePermissions = {
  /** Admins and auditors read every bug (deleted ones' histories too), dashboard, export and counter. */
  readsEverything(actor: Pick<Actor, 'role'>): boolean {
    return actor.role === 'admin' || actor.role === 'auditor';
  },
  /**
   * Auditors change nothing: every command is refused but their own profile, session
   * and two-factor settings.
   */
  isReadOnly(actor: Pick<Actor, 'role'>): boolean {
    return actor.role === 'auditor';
  },
  /** Only an admin grants roles (the auditor role included). */
  canChangeRoles(actor: Pick<Actor, 'role'>): boolean {
    return actor.role === 'admin';
  },
  /** Who may be assigned to a bug: developers only (never an auditor). */
  isAssignable(role: Role): boolean {
    return role === 'developer';
  },
} as const;
