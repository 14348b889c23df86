import type { ChecklistItemState } from './bug.js';
import type { BugEvent } from './bug-events.js';

/** One item of a full checklist as a client sends it (`completedBy`/`completedAt` are ignored). */
export type ChecklistEntry = Readonly<{ id?: string | null; text: string; completed?: boolean | undefined }>;

export type ChecklistDiffContext = Readonly<{
  bugId: string;
  actorId: string;
  now: string;
  /** May add, remove and reword items (an editor of the bug). */
  canEditItems: boolean;
  /** May tick and untick items (an assigned developer or an admin). */
  canTick: boolean;
  /** A new item id (ids come from outside: the domain makes none). */
  newId: () => string;
}>;

/**
 * Diffs a full replacement list into item events (api.md): entries are matched to
 * the current items by `_id`; when the client sends no ids at all, by position.
 * Unmatched entries are added, unmatched items removed, changed text is an edit.
 * A change the actor may not make is ignored, not refused: a developer's list
 * carries the texts it was shown, a tester's form the ticks it was shown.
 */
export function diffChecklist(
  current: readonly ChecklistItemState[],
  incoming: readonly ChecklistEntry[],
  ctx: ChecklistDiffContext,
): BugEvent[] {
  const entries = incoming.map((e) => ({ ...e, text: e.text.trim() })).filter((e) => e.text.length > 0);
  const byId = entries.some((e) => typeof e.id === 'string' && e.id.length > 0);
  const claimed = new Set<string>();
  const matches = entries.map((entry, index): ChecklistItemState | undefined => {
    const item = byId ? current.find((i) => i.id === entry.id) : current[index];
    if (!item || claimed.has(item.id)) return undefined;
    claimed.add(item.id);
    return item;
  });

  const { bugId } = ctx;
  const events: BugEvent[] = [];
  if (ctx.canEditItems) {
    for (const item of current) {
      if (!claimed.has(item.id)) events.push({ type: 'ChecklistItemRemoved', data: { bugId, itemId: item.id } });
    }
  }
  entries.forEach((entry, index) => {
    const item = matches[index];
    let itemId: string;
    let completed: boolean;
    if (item) {
      itemId = item.id;
      completed = item.completed;
      if (ctx.canEditItems && entry.text !== item.text) {
        events.push({ type: 'ChecklistItemTextChanged', data: { bugId, itemId, text: entry.text } });
      }
    } else {
      if (!ctx.canEditItems) return;
      itemId = ctx.newId();
      completed = false;
      events.push({ type: 'ChecklistItemAdded', data: { bugId, itemId, text: entry.text } });
    }
    if (!ctx.canTick || entry.completed === undefined || entry.completed === completed) return;
    events.push(
      entry.completed
        ? { type: 'ChecklistItemCompleted', data: { bugId, itemId, by: ctx.actorId, at: ctx.now } }
        : { type: 'ChecklistItemReopened', data: { bugId, itemId } },
    );
  });
  return events;
}
