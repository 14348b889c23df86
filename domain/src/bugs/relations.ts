import { z } from 'zod';
import { ConflictError, NotFoundError, ValidationError } from '../core/errors.js';
import type { Command } from '../core/event.js';
import type { BugState, ReportedBug } from './bug.js';
import type { BugEvent } from './bug-events.js';
import { actorOf, existingBug, refuse } from './guards.js';
import { bugMessages, bugPermissions } from './permissions.js';

/**
 * Relations and sub-bugs (api.md "Relations and sub-bugs", issue 36). A relation is said from
 * one bug's side (`POST /api/bugs/{id}/relations { type, bugId }`) and recorded on that bug's
 * stream; both bugs show it, the other with the inverse name. `blocks` holds: a bug cannot be
 * closed while a bug that blocks it is open (admins may override, and the history says so). A
 * duplicate is closed as it is declared. A sub-bug names its parent on its own stream.
 *
 * What a decision needs of other bugs (are they visible, would this close a loop, which
 * blockers are open) write-api reads from the write side's relation rows and the other bugs'
 * streams, and hands over in the command.
 */
export const relationTypes = ['blocks', 'blocked_by', 'duplicate_of', 'relates_to'] as const;
export type RelationType = (typeof relationTypes)[number];
/** As a bug shows a relation: the other side of `duplicate_of` reads `duplicated_by`. */
export const shownRelationTypes = [...relationTypes, 'duplicated_by'] as const;
export type ShownRelationType = (typeof shownRelationTypes)[number];

export const relationMessages = {
  cycle: 'That would make a cycle',
  cannotRelate: "You don't have permission to change this bug's relations",
  relationNotFound: 'Relation not found',
  typeInvalid: `type must be one of ${relationTypes.join(', ')}`,
  bugIdRequired: 'bugId is required',
  tooMany: 'A bug has at most 100 relations',
} as const;

/** "Blocked by WEB-3: close it first" (every open blocker named). */
export function blockedMessage(keys: readonly string[]): string {
  return keys.length === 1
    ? `Blocked by ${keys[0]}: close it first`
    : `Blocked by ${keys.slice(0, -1).join(', ')} and ${keys.at(-1)}: close them first`;
}

export const inverseRelation: Readonly<Record<ShownRelationType, ShownRelationType>> = {
  blocks: 'blocked_by',
  blocked_by: 'blocks',
  duplicate_of: 'duplicated_by',
  duplicated_by: 'duplicate_of',
  relates_to: 'relates_to',
};

/** One relation as stored once per pair: `blocks` (blocker → blocked), `duplicate_of` (duplicate → original), `relates_to`. */
export type RelationEdge = Readonly<{ from: string; to: string; kind: 'blocks' | 'duplicate_of' | 'relates_to' }>;

/** The stored edge of a relation said from `bugId`'s side. `relates_to` is kept once per pair, lesser id first. */
export function relationEdge(bugId: string, type: ShownRelationType, otherBugId: string): RelationEdge {
  switch (type) {
    case 'blocks':
      return { from: bugId, to: otherBugId, kind: 'blocks' };
    case 'blocked_by':
      return { from: otherBugId, to: bugId, kind: 'blocks' };
    case 'duplicate_of':
      return { from: bugId, to: otherBugId, kind: 'duplicate_of' };
    case 'duplicated_by':
      return { from: otherBugId, to: bugId, kind: 'duplicate_of' };
    case 'relates_to':
      return bugId < otherBugId
        ? { from: bugId, to: otherBugId, kind: 'relates_to' }
        : { from: otherBugId, to: bugId, kind: 'relates_to' };
  }
}

/** How `bugId` names an edge it is part of. */
export function relationSeenFrom(edge: RelationEdge, bugId: string): ShownRelationType {
  if (edge.kind === 'relates_to') return 'relates_to';
  const outgoing = edge.from === bugId;
  if (edge.kind === 'blocks') return outgoing ? 'blocks' : 'blocked_by';
  return outgoing ? 'duplicate_of' : 'duplicated_by';
}

const id = z.string().min(1).max(100);
export const relationEventSchemas = {
  BugRelationAdded: { version: 1, data: z.object({ bugId: id, otherBugId: id, type: z.enum(relationTypes) }) },
  BugRelationRemoved: { version: 1, data: z.object({ bugId: id, otherBugId: id, type: z.enum(shownRelationTypes) }) },
  /** The bug becomes a sub-bug of `parentId` (null: of none). */
  BugParentSet: { version: 1, data: z.object({ bugId: id, parentId: id.nullable() }) },
} as const;

/** `POST /api/bugs/{id}/relations`. */
export const addRelationBody = z.object({
  type: z.enum(relationTypes, { error: relationMessages.typeInvalid }),
  bugId: z.string({ error: relationMessages.bugIdRequired }).trim().min(1, relationMessages.bugIdRequired).max(100),
});
/** `PUT /api/bugs/{id}/parent`. */
export const setParentBody = z.object({
  parentId: z.string({ error: 'parentId must be a bug id or null' }).trim().min(1).max(100).nullable(),
});

/** What write-api learned of the other bug: null when it does not exist for the caller. */
export type OtherBugFacts = Readonly<{ id: string }> | null;

export type AddRelation = Command<
  'AddRelation',
  {
    bugId: string;
    otherBugId: string;
    type: RelationType;
    other: OtherBugFacts;
    /** The pair is related so already (in this sense): nothing to record. */
    exists: boolean;
    /** A `blocks` (or `blocked_by`) that would come back to where it starts. */
    wouldCycle: boolean;
  }
>;
export type RemoveRelation = Command<
  'RemoveRelation',
  { bugId: string; otherBugId: string; type: ShownRelationType; exists: boolean }
>;
export type SetParent = Command<
  'SetParent',
  { bugId: string; parentId: string | null; parent: OtherBugFacts; wouldCycle: boolean }
>;

function mayRelate(command: { metadata: AddRelation['metadata'] }, state: BugState): ReportedBug {
  const actor = actorOf(command);
  const bug = existingBug(state, actor);
  if (!bugPermissions.canEdit(actor, bug) && !bugPermissions.canWorkOn(actor, bug)) {
    refuse(actor, bug, relationMessages.cannotRelate);
  }
  return bug;
}

export function decideAddRelation(command: AddRelation, state: BugState): BugEvent[] {
  const bug = mayRelate(command, state);
  const { otherBugId, type } = command.data;
  if (otherBugId === bug.id) throw ValidationError.field('bugId', relationMessages.cycle);
  if (!command.data.other) throw new NotFoundError(bugMessages.notFound);
  if (command.data.wouldCycle) throw ValidationError.field('bugId', relationMessages.cycle);
  if (command.data.exists) return [];
  const events: BugEvent[] = [{ type: 'BugRelationAdded', data: { bugId: bug.id, otherBugId, type } }];
  // A duplicate is done with: closed as it is declared (its reporter follows the original).
  if (type === 'duplicate_of' && bug.status !== 'Closed') {
    events.push({ type: 'BugStatusChanged', data: { bugId: bug.id, from: bug.status, to: 'Closed' } });
  }
  return events;
}

export function decideRemoveRelation(command: RemoveRelation, state: BugState): BugEvent[] {
  const bug = mayRelate(command, state);
  if (!command.data.exists) throw new NotFoundError(relationMessages.relationNotFound);
  const { otherBugId, type } = command.data;
  return [{ type: 'BugRelationRemoved', data: { bugId: bug.id, otherBugId, type } }];
}

export function decideSetParent(command: SetParent, state: BugState): BugEvent[] {
  const bug = mayRelate(command, state);
  const { parentId } = command.data;
  if (parentId === bug.parentId) return [];
  if (parentId !== null) {
    if (parentId === bug.id) throw ValidationError.field('parentId', relationMessages.cycle);
    if (!command.data.parent) throw new NotFoundError(bugMessages.notFound);
    if (command.data.wouldCycle) throw ValidationError.field('parentId', relationMessages.cycle);
  }
  return [{ type: 'BugParentSet', data: { bugId: bug.id, parentId } }];
}

/**
 * Closing a bug that open blockers block: 409 naming them, unless an admin overrides (the event
 * then names the blockers it went past). `openBlockers`: the open bugs that block it, as write-api
 * read them (their keys name them), or undefined when it did not look (nothing blocks then).
 */
export type Blockers = Readonly<{
  openBlockers?: readonly { id: string; key: string }[] | undefined;
  override?: boolean | undefined;
}>;

export function closingPastBlockers(
  actor: { role: string },
  bug: ReportedBug,
  to: string,
  blockers: Blockers,
): { overriddenBlockers?: string[] } {
  const open = blockers.openBlockers ?? [];
  if (to !== 'Closed' || bug.status === 'Closed' || open.length === 0) return {};
  if (blockers.override && actor.role === 'admin') return { overriddenBlockers: open.map((b) => b.id) };
  throw new ConflictError(blockedMessage(open.map((b) => b.key)));
}

/** The parent after `event`. */
export function evolveParent(parentId: string | null, event: BugEvent): string | null {
  return event.type === 'BugParentSet' ? event.data.parentId : parentId;
}
