import { z } from 'zod';
import { ValidationError } from '../core/errors.js';
import type { Command } from '../core/event.js';
import { labelMessages } from '../labels/label.schemas.js';
import type { BugState } from './bug.js';
import type { BugEvent } from './bug-events.js';
import { actorOf, existingBug, refuse } from './guards.js';
import { bugPermissions } from './permissions.js';

/**
 * A bug's labels (api.md "Labels", issue 36): `PUT /api/bugs/{id}/labels { labelIds }` sets them
 * whole, decided as a diff (who joins, who leaves, like assignees). Whoever may edit the bug may,
 * and so may those who work on it (its assigned developers). Only labels that exist may be put
 * on; a deleted one is taken off every bug by the label cleanup reactor, with the same event.
 */
const id = z.string().min(1).max(100);
export const bugLabelEventSchemas = {
  BugLabelsAdded: { version: 1, data: z.object({ bugId: id, labelIds: z.array(id).min(1) }) },
  /** `labelDeleted`: taken off because the label was deleted (the reactor's, not a person's). */
  BugLabelsRemoved: {
    version: 1,
    data: z.object({ bugId: id, labelIds: z.array(id).min(1), labelDeleted: z.boolean().optional() }),
  },
} as const;

/** `knownLabelIds`: which of `labelIds` are labels that exist now, as write-api read them. */
export type SetBugLabels = Command<
  'SetBugLabels',
  { bugId: string; labelIds: readonly string[]; knownLabelIds: readonly string[] }
>;
/** The label cleanup reactor's: takes a deleted label off one bug (no actor). */
export type DropDeletedLabel = Command<'DropDeletedLabel', { bugId: string; labelId: string }>;

export function decideBugLabels(command: SetBugLabels, state: BugState): BugEvent[] {
  const actor = actorOf(command);
  const bug = existingBug(state, actor);
  if (!bugPermissions.canEdit(actor, bug) && !bugPermissions.canWorkOn(actor, bug)) {
    refuse(actor, bug, labelMessages.cannotLabel);
  }
  const next = [...new Set(command.data.labelIds)];
  const known = new Set(command.data.knownLabelIds);
  // A label already on the bug stays sayable even when it was deleted since (the reactor is on its way).
  if (next.some((labelId) => !known.has(labelId) && !bug.labelIds.includes(labelId))) {
    throw ValidationError.field('labelIds', labelMessages.unknown);
  }
  const added = next.filter((labelId) => !bug.labelIds.includes(labelId));
  const removed = bug.labelIds.filter((labelId) => !next.includes(labelId));
  const events: BugEvent[] = [];
  if (added.length > 0) events.push({ type: 'BugLabelsAdded', data: { bugId: bug.id, labelIds: added } });
  if (removed.length > 0) events.push({ type: 'BugLabelsRemoved', data: { bugId: bug.id, labelIds: removed } });
  return events;
}

export function decideDropDeletedLabel(command: DropDeletedLabel, state: BugState): BugEvent[] {
  if (state.kind !== 'reported' || !state.labelIds.includes(command.data.labelId)) return [];
  return [
    { type: 'BugLabelsRemoved', data: { bugId: state.id, labelIds: [command.data.labelId], labelDeleted: true } },
  ];
}

/** The labels after `event`, in the order they were put on. */
export function evolveLabelIds(labelIds: readonly string[], event: BugEvent): readonly string[] {
  if (event.type === 'BugLabelsAdded') {
    const added = event.data.labelIds.filter((labelId) => !labelIds.includes(labelId));
    return added.length > 0 ? [...labelIds, ...added] : labelIds;
  }
  if (event.type === 'BugLabelsRemoved') {
    const removed = new Set(event.data.labelIds);
    return labelIds.some((labelId) => removed.has(labelId)) ? labelIds.filter((l) => !removed.has(l)) : labelIds;
  }
  return labelIds;
}
