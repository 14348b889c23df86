import { z } from 'zod';
import { ValidationError } from '../core/errors.js';
import type { Command } from '../core/event.js';
import { stateMessages, stateOf, statesOr, type WorkflowState } from '../projects/state-values.js';
import type { BugState } from './bug.js';
import type { BugEvent } from './bug-events.js';
import { actorOf, existingBug, refuse } from './guards.js';
import { bugPermissions } from './permissions.js';
import { type Blockers, closingPastBlockers } from './relations.js';

/**
 * A bug's workflow state (api.md "Custom fields, workflow states and time", issue 37):
 * `PUT /api/bugs/{id}/state { stateId }`. A state of another category changes the status too
 * (a status change first, then the state), so counts and spec clients follow; a status change
 * alone puts the bug in its category's first state.
 */
const id = z.string().min(1).max(100);
export const bugStateEventSchemas = {
  /** `from`: the state it was shown in before (its category's first when it had chosen none). */
  BugStateChanged: { version: 1, data: z.object({ bugId: id, stateId: id, from: id }) },
} as const;

/** `states`: the bug's project's states, as write-api read them. */
export type SetBugState = Command<
  'SetBugState',
  Blockers & { bugId: string; stateId: string; states: readonly WorkflowState[] }
>;

export function decideBugState(command: SetBugState, state: BugState): BugEvent[] {
  const actor = actorOf(command);
  const bug = existingBug(state, actor);
  const target = statesOr(command.data.states).find((s) => s.id === command.data.stateId);
  if (!target) throw ValidationError.field('stateId', stateMessages.unknown(command.data.stateId));
  if (
    !bugPermissions.canWorkOn(actor, bug) &&
    !bugPermissions.canCloseOrReopen(actor, bug, bug.status, target.category)
  ) {
    refuse(actor, bug, stateMessages.cannotChange);
  }
  const current = stateOf(command.data.states, bug.status, bug.stateId);
  if (current.id === target.id) return [];
  const events: BugEvent[] = [];
  if (target.category !== bug.status) {
    const past = closingPastBlockers(actor, bug, target.category, command.data);
    events.push({ type: 'BugStatusChanged', data: { bugId: bug.id, from: bug.status, to: target.category, ...past } });
  }
  events.push({ type: 'BugStateChanged', data: { bugId: bug.id, stateId: target.id, from: current.id } });
  return events;
}

/** The state it chose after `event`: a status change or a move leaves it in its category's first. */
export function evolveStateId(stateId: string | null, event: BugEvent): string | null {
  if (event.type === 'BugStateChanged') return event.data.stateId;
  if (event.type === 'BugStatusChanged' || event.type === 'BugMovedToProject') return null;
  return stateId;
}
