import { z } from 'zod';
import { NotFoundError, ValidationError } from '../core/errors.js';
import type { Command } from '../core/event.js';
import { milestoneMessages } from '../milestones/milestone.schemas.js';
import type { BugState } from './bug.js';
import type { BugEvent } from './bug-events.js';
import { actorOf, existingBug, refuse } from './guards.js';
import { bugPermissions } from './permissions.js';

/**
 * A bug's milestone (api.md "Milestones", issue 36): `PUT /api/bugs/{id}/milestone`, one of its
 * project's milestones or none. Recorded on the bug's stream, so a burn-up reads scope as it was
 * each day. A bug moved to another project leaves its milestone.
 */
const id = z.string().min(1).max(100);
export const bugMilestoneEventSchemas = {
  BugMilestoneSet: { version: 1, data: z.object({ bugId: id, milestoneId: id.nullable() }) },
} as const;

/** `milestone`: the one named, as write-api read it (null: none such, or deleted); absent when none was named. */
export type SetBugMilestone = Command<
  'SetBugMilestone',
  { bugId: string; milestoneId: string | null; milestone: { id: string; projectId: string } | null }
>;

export function decideBugMilestone(command: SetBugMilestone, state: BugState): BugEvent[] {
  const actor = actorOf(command);
  const bug = existingBug(state, actor);
  if (!bugPermissions.canEdit(actor, bug) && !bugPermissions.canWorkOn(actor, bug)) {
    refuse(actor, bug, milestoneMessages.cannotPlan);
  }
  const { milestoneId, milestone } = command.data;
  if (milestoneId === bug.milestoneId) return [];
  if (milestoneId !== null) {
    if (!milestone) throw new NotFoundError(milestoneMessages.notFound);
    if (milestone.projectId !== bug.projectId)
      throw ValidationError.field('milestoneId', milestoneMessages.otherProject);
  }
  return [{ type: 'BugMilestoneSet', data: { bugId: bug.id, milestoneId } }];
}

/** A deleted milestone's cleanup: takes the bug out of it (no actor needed; nothing when it is elsewhere now). */
export type DropDeletedMilestone = Command<'DropDeletedMilestone', { bugId: string; milestoneId: string }>;

export function decideDropDeletedMilestone(command: DropDeletedMilestone, state: BugState): BugEvent[] {
  if (state.kind !== 'reported' || state.milestoneId !== command.data.milestoneId) return [];
  return [{ type: 'BugMilestoneSet', data: { bugId: state.id, milestoneId: null } }];
}

/** The milestone after `event`: a move to another project leaves it. */
export function evolveMilestoneId(milestoneId: string | null, event: BugEvent): string | null {
  if (event.type === 'BugMilestoneSet') return event.data.milestoneId;
  if (event.type === 'BugMovedToProject') return null;
  return milestoneId;
}
