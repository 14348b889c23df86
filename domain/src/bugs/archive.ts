import { z } from 'zod';
import { ConflictError } from '../core/errors.js';
import type { Command } from '../core/event.js';
import type { BugState } from './bug.js';
import type { BugEvent } from './bug-events.js';
import { actorOf, existingBug, refuse } from './guards.js';

/**
 * Archiving a bug: an admin puts a closed bug away. It leaves the lists, counts and
 * dashboards (`GET /api/bugs?archived=true` lists the archived ones), keeps its page, its
 * history and its number, and comes back by itself when it is reopened. Everything of the
 * feature but its declaration (write-api) and its read side sits here: events, command,
 * decision and evolution.
 */

export const bugArchiveMessages = {
  cannotArchive: 'Only admins can archive bugs',
  notClosed: 'Only closed bugs can be archived',
  archived: 'Bug archived',
  restored: 'Bug restored',
} as const;

const bugId = z.string().min(1).max(100);
export const archiveEventSchemas = {
  BugArchived: { version: 1, data: z.object({ bugId }) },
  BugRestored: { version: 1, data: z.object({ bugId }) },
} as const;

export type BugArchivedData = z.infer<(typeof archiveEventSchemas)['BugArchived']['data']>;
export type BugRestoredData = z.infer<(typeof archiveEventSchemas)['BugRestored']['data']>;

/** `PUT /api/bugs/{id}/archived { archived }`: the same value again changes nothing. */
export type ArchiveBug = Command<'ArchiveBug', { bugId: string; archived: boolean }>;

export function decideArchive(command: ArchiveBug, state: BugState): BugEvent[] {
  const actor = actorOf(command);
  const bug = existingBug(state, actor);
  if (actor.role !== 'admin') refuse(actor, bug, bugArchiveMessages.cannotArchive);
  if (command.data.archived === bug.archived) return [];
  if (!command.data.archived) return [{ type: 'BugRestored', data: { bugId: bug.id } }];
  if (bug.status !== 'Closed') throw new ConflictError(bugArchiveMessages.notClosed);
  return [{ type: 'BugArchived', data: { bugId: bug.id } }];
}

/**
 * Whether the bug is archived after `event`: set and cleared by the two events, and cleared
 * when the bug leaves Closed (a reopened bug is work again).
 */
export function evolveArchived(archived: boolean, event: BugEvent): boolean {
  if (event.type === 'BugArchived') return true;
  if (event.type === 'BugRestored') return false;
  if (event.type === 'BugStatusChanged' && event.data.to !== 'Closed') return false;
  return archived;
}
