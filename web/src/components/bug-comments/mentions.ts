import type { Role } from '../../lib/types';

/**
 * Who a comment may @-mention and which of them it still names. Only people who may view
 * the bug can be mentioned (api.md "People", Comments): every admin and auditor, the
 * reporter and the assignees. The server refuses anyone else with a 400, so the
 * autocomplete never offers them.
 */

export type Person = { _id: string; name: string; profileImageURL?: string | null | undefined };

/** A row of `GET /api/users` as the page reads it (the directory, or the admin's team list). */
export type DirectoryEntry = Person & { role?: Role | string | undefined; deactivated?: boolean | undefined };

export type MentionCandidate = Person & {
  /** Why they may see the bug, shown beside the name. */
  reason: 'Assignee' | 'Reporter' | 'Admin' | 'Auditor';
};

const byName = (a: Person, b: Person) => a.name.localeCompare(b.name);

/**
 * The people the autocomplete offers: assignees, the reporter, then admins and auditors
 * by name; never the writer, nobody twice, nobody deactivated (they cannot sign in to read it).
 */
export function mentionCandidates({
  directory,
  reporter,
  assignees,
  selfId,
}: {
  directory: readonly DirectoryEntry[];
  reporter: Person | null | undefined;
  assignees: readonly Person[];
  selfId: string | undefined;
}): MentionCandidate[] {
  const known = new Map(directory.map((entry) => [entry._id, entry]));
  const out: MentionCandidate[] = [];
  const seen = new Set<string>(selfId ? [selfId] : []);
  const add = (person: Person, reason: MentionCandidate['reason']) => {
    if (!person._id || !person.name || seen.has(person._id)) return;
    const entry = known.get(person._id);
    if (entry?.deactivated) return;
    seen.add(person._id);
    const picture = entry?.profileImageURL ?? person.profileImageURL ?? null;
    out.push({ _id: person._id, name: entry?.name || person.name, profileImageURL: picture, reason });
  };
  for (const person of [...assignees].sort(byName)) add(person, 'Assignee');
  if (reporter) add(reporter, 'Reporter');
  const staff = directory.filter((entry) => entry.role === 'admin' || entry.role === 'auditor');
  for (const entry of [...staff].sort(byName)) add(entry, entry.role === 'admin' ? 'Admin' : 'Auditor');
  return out;
}

/** At most this many suggestions at once. */
export const MAX_SUGGESTIONS = 8;

/** Names that start with the query first (a word of the name, then anywhere in it). */
export function filterCandidates<T extends Person>(candidates: readonly T[], query: string): T[] {
  // Not trimmed: `@Dana Developer ` (a space after the whole name) has finished the mention.
  const wanted = query.toLowerCase();
  if (!wanted) return candidates.slice(0, MAX_SUGGESTIONS);
  const rank = (name: string) => {
    const lower = name.toLowerCase();
    if (lower.startsWith(wanted)) return 0;
    if (lower.split(/\s+/).some((word) => word.startsWith(wanted))) return 1;
    return lower.includes(wanted) ? 2 : 3;
  };
  return candidates
    .map((candidate, index) => ({ candidate, index, rank: rank(candidate.name) }))
    .filter((entry) => entry.rank < 3)
    .sort((a, b) => a.rank - b.rank || a.index - b.index)
    .slice(0, MAX_SUGGESTIONS)
    .map((entry) => entry.candidate);
}

/**
 * The `@query` being typed right before the caret, if any: `@` at the start or after a
 * space or an opening bracket, then up to 30 characters on the same line. Names have
 * spaces, so the query may too; the caller closes the list when nothing matches it.
 */
export function mentionQueryAt(text: string, caret: number): { start: number; query: string } | null {
  const before = text.slice(0, caret);
  const match = /(?:^|[\s(])@([^\s@][^@\n]{0,29})?$/u.exec(before);
  if (!match) return null;
  const query = match[1] ?? '';
  return { start: caret - query.length - 1, query };
}

export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** `@Name` as a whole mention: not inside a word before it, not running on into one after it. */
export function mentionPattern(name: string, flags = 'u'): RegExp {
  return new RegExp(`(?<![\\p{L}\\p{N}_@])@${escapeRegExp(name)}(?![\\p{L}\\p{N}_])`, flags);
}

/** The ids of the picked people whose `@Name` is still in the text (a deleted mention is dropped). */
export function mentionsStillIn(text: string, picked: readonly Person[]): string[] {
  const ids: string[] = [];
  for (const person of picked) {
    if (!person.name || ids.includes(person._id)) continue;
    if (mentionPattern(person.name).test(text)) ids.push(person._id);
  }
  return ids;
}

export type TextPart = { kind: 'text'; text: string } | { kind: 'mention'; text: string; person: Person };

/** A text cut into plain runs and `@Name` mentions of the given people (longest name first). */
export function splitMentions(text: string, people: readonly Person[]): TextPart[] {
  const named = people.filter((person) => person.name).sort((a, b) => b.name.length - a.name.length);
  if (named.length === 0 || !text.includes('@')) return [{ kind: 'text', text }];
  const alternatives = named.map((person) => escapeRegExp(person.name)).join('|');
  const pattern = new RegExp(`(?<![\\p{L}\\p{N}_@])@(${alternatives})(?![\\p{L}\\p{N}_])`, 'gu');
  const parts: TextPart[] = [];
  let last = 0;
  for (const match of text.matchAll(pattern)) {
    const person = named.find((candidate) => candidate.name === match[1]);
    if (!person) continue;
    const index = match.index ?? 0;
    if (index > last) parts.push({ kind: 'text', text: text.slice(last, index) });
    parts.push({ kind: 'mention', text: match[0], person });
    last = index + match[0].length;
  }
  if (last < text.length) parts.push({ kind: 'text', text: text.slice(last) });
  return parts;
}
