import { ForbiddenError, NotFoundError, UnauthorizedError } from '../core/errors.js';
import type { Actor, CommandMetadata } from '../core/event.js';
import type { BugState, ReportedBug } from './bug.js';
import { bugMessages, bugPermissions, isHiddenFrom } from './permissions.js';

/**
 * The checks every bug command starts with, in this order: a signed-in actor (401), a bug
 * that exists, is not deleted and is in a project the actor sees (404), and a refusal that does not tell a
 * stranger more than the bug's page would (403).
 */

export function actorOf(command: { metadata: CommandMetadata }): Actor {
  const actor = command.metadata.actor;
  if (!actor) throw new UnauthorizedError('Not authorized, no token');
  return actor;
}

/**
 * The bug, when it exists, is not deleted, and is not in a private project the actor is no
 * member of (issue 35: for them it does not exist); 404 otherwise.
 */
export function existingBug(state: BugState, actor: Actor): ReportedBug {
  if (state.kind !== 'reported' || state.deleted || isHiddenFrom(actor, state)) {
    throw new NotFoundError(bugMessages.notFound);
  }
  return state;
}

/** 403: with the detail's message when the actor may not even see the bug. */
export function refuse(actor: Actor, bug: ReportedBug, message: string): never {
  throw new ForbiddenError(bugPermissions.canView(actor, bug) ? message : bugMessages.noPermissionToView);
}
