import { ForbiddenError, NotFoundError, UnauthorizedError } from '../core/errors.js';
import type { Actor, CommandMetadata } from '../core/event.js';
import type { BugState, ReportedBug } from './bug.js';
import { bugMessages, bugPermissions } from './permissions.js';

/**
 * The checks every bug command starts with, in this order: a signed-in actor (401), a bug
 * that exists and is not deleted (404, for everyone), and a refusal that does not tell a
 * stranger more than the bug's page would (403).
 */

export function actorOf(command: { metadata: CommandMetadata }): Actor {
  const actor = command.metadata.actor;
  if (!actor) throw new UnauthorizedError('Not authorized, no token');
  return actor;
}

/** The bug, when it exists and is not deleted (404 otherwise, for everyone). */
export function existingBug(state: BugState): ReportedBug {
  if (state.kind !== 'reported' || state.deleted) throw new NotFoundError(bugMessages.notFound);
  return state;
}

/** 403: with the detail's message when the actor may not even see the bug. */
export function refuse(actor: Actor, bug: ReportedBug, message: string): never {
  throw new ForbiddenError(bugPermissions.canView(actor, bug) ? message : bugMessages.noPermissionToView);
}
