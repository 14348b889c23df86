import { diffWords } from 'diff';

/** A readable text diff for the timeline: words kept, removed and added, in reading order. */
export type TextPart = { kind: 'same' | 'removed' | 'added'; text: string };

/** Past this many edits a word diff stops being readable (and costs time): show old and new whole. */
const MAX_EDITS = 4000;

export function diffText(before: string, after: string): TextPart[] {
  if (before === after) return before ? [{ kind: 'same', text: before }] : [];
  const changes = diffWords(before, after, { maxEditLength: MAX_EDITS });
  if (!changes) {
    return [
      ...(before ? [{ kind: 'removed' as const, text: before }] : []),
      ...(after ? [{ kind: 'added' as const, text: after }] : []),
    ];
  }
  return changes
    .filter((c) => c.value !== '')
    .map((c) => ({ kind: c.added ? 'added' : c.removed ? 'removed' : 'same', text: c.value }));
}
