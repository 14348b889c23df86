import { roles } from '@bugtrail/domain/vocabulary';
import { compact, pickOne, pickText } from '../../../lib/search';
import type { TeamMember } from '../../../lib/types';

/**
 * The Team Members page's state in its URL: the text searched (name or email) and the
 * order. Name order is the default and stays out of the URL. Checked by hand, like the
 * other search params.
 */
export const teamSorts = ['name', 'role', 'newest'] as const;
export type TeamSort = (typeof teamSorts)[number];
export type TeamSearch = { q?: string; sort?: Exclude<TeamSort, 'name'> };

export const teamSortLabels: Record<TeamSort, string> = {
  name: 'Name, A to Z',
  role: 'Role',
  newest: 'Newest first',
};

export function teamSearchFrom(search: Record<string, unknown>): TeamSearch {
  const sort = pickOne(search.sort, teamSorts);
  // A search of digits arrives as a number (the router parses JSON-looking values).
  const q = typeof search.q === 'number' ? String(search.q) : pickText(search.q, 100);
  return compact({ q: q?.trim() || undefined, sort: sort === 'name' ? undefined : sort });
}

const byName = (a: TeamMember, b: TeamMember) =>
  a.name.localeCompare(b.name, undefined, { sensitivity: 'base' }) || a._id.localeCompare(b._id);

const signedUp = (member: TeamMember) => {
  const time = member.createdAt ? Date.parse(member.createdAt) : Number.NaN;
  return Number.isNaN(time) ? 0 : time;
};

/** The members whose name or email holds the text (any case), in the chosen order. */
export function listTeam(members: readonly TeamMember[], search: TeamSearch): TeamMember[] {
  const text = search.q?.trim().toLocaleLowerCase() ?? '';
  const found = text
    ? members.filter(
        (member) =>
          member.name.toLocaleLowerCase().includes(text) || (member.email ?? '').toLocaleLowerCase().includes(text),
      )
    : [...members];
  switch (search.sort ?? 'name') {
    case 'role':
      return found.sort((a, b) => roles.indexOf(a.role) - roles.indexOf(b.role) || byName(a, b));
    case 'newest':
      return found.sort((a, b) => signedUp(b) - signedUp(a) || byName(a, b));
    default:
      return found.sort(byName);
  }
}
