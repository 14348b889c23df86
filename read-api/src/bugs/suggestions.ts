import {
  type Actor,
  type AssigneeSuggestion,
  type DuplicateSuggestion,
  noSuggestions,
  type Priority,
  type Severity,
  type TriageRequest,
  type TriageSuggestions,
  triageLimits,
  triageReasons,
  type ValueSuggestion,
} from '@bugtrail/domain';
import {
  type ActiveDeveloper,
  findActiveDevelopers,
  findClosers,
  findSimilarBugs,
  queryWords,
  type ReadModelDb,
  type SimilarBug,
  visibleBugScope,
  wordStats,
} from '@bugtrail/projector';
import type { Kysely } from 'kysely';

/**
 * Triage suggestions from the team's own bugs, no AI (api.md "Triage suggestions",
 * ADR 019). Candidates by full-text search, one score each (the titles' pg_trgm similarity
 * and the share of words in common), then:
 * - duplicates: the best-scoring bugs the caller may open;
 * - severity and priority: what most of the k most similar bugs have;
 * - assignees: the active developers who closed similar bugs, fewer for those busy now.
 */

/** How much the titles' trigram similarity counts against the shared words. */
export const TITLE_WEIGHT = 0.6;
/** A duplicate worth showing scores at least this. */
export const DUPLICATE_MIN_SCORE = 0.35;
/** A bug similar enough to vote on severity and priority or to credit its closer. */
export const NEIGHBOUR_MIN_SCORE = 0.3;
/** The similar closed bugs whose closers are credited. */
const CLOSED_NEIGHBOURS = 20;
/** Open bugs that halve a developer's weight (weight = similar closed / (1 + open / this)). */
const OPEN_LOAD_HALVES_AT = 10;

export type ScoredBug = SimilarBug & { score: number };

export function scoreOf(bug: Pick<SimilarBug, 'titleSimilarity' | 'wordCoverage'>): number {
  return TITLE_WEIGHT * bug.titleSimilarity + (1 - TITLE_WEIGHT) * bug.wordCoverage;
}

/** Best first; equal scores newest (highest number) first, so the order is stable. */
export function ranked(bugs: readonly SimilarBug[]): ScoredBug[] {
  return bugs
    .map((b) => ({ ...b, score: scoreOf(b) }))
    .sort((a, b) => b.score - a.score || (b.number ?? 0) - (a.number ?? 0) || a.id.localeCompare(b.id));
}

const round2 = (n: number) => Math.round(n * 100) / 100;

/**
 * The value most of the neighbours share: at least two of them and more than half,
 * else no suggestion (a split vote suggests nothing).
 */
export function majority<V extends string>(
  neighbours: readonly ScoredBug[],
  voteOf: (b: ScoredBug) => V,
  reason: (count: number, of: number, value: V) => string,
): ValueSuggestion<V> | null {
  const counts = new Map<V, number>();
  for (const b of neighbours) counts.set(voteOf(b), (counts.get(voteOf(b)) ?? 0) + 1);
  let best: [V, number] | null = null;
  for (const entry of counts) if (!best || entry[1] > best[1]) best = entry;
  if (!best || best[1] < 2 || best[1] * 2 <= neighbours.length) return null;
  return { value: best[0], reason: reason(best[1], neighbours.length, best[0]) };
}

/**
 * Who to assign: each similar closed bug credits whoever closed it when that is an active
 * developer, else its assigned active developers (an admin closed it for them). Weighted
 * by similarity, divided by how much they have open now.
 */
export function rankAssignees(
  closed: readonly ScoredBug[],
  closers: ReadonlyMap<string, string>,
  developers: ReadonlyMap<string, ActiveDeveloper>,
): AssigneeSuggestion[] {
  const credit = new Map<string, { closed: number; weight: number }>();
  for (const bug of closed) {
    const closer = closers.get(bug.id);
    const who = closer && developers.has(closer) ? [closer] : bug.assigneeIds.filter((id) => developers.has(id));
    for (const id of who) {
      const c = credit.get(id) ?? { closed: 0, weight: 0 };
      credit.set(id, { closed: c.closed + 1, weight: c.weight + bug.score });
    }
  }
  return [...credit]
    .map(([id, c]) => {
      const dev = developers.get(id)!;
      return { dev, closed: c.closed, weight: c.weight / (1 + dev.open / OPEN_LOAD_HALVES_AT) };
    })
    .sort((a, b) => b.weight - a.weight || a.dev.name.localeCompare(b.dev.name))
    .slice(0, triageLimits.assignees)
    .map(({ dev, closed: n }) => ({ _id: dev.id, name: dev.name, reason: triageReasons.assignee(n, dev.open) }));
}

/**
 * The suggestions for what `actor` is typing. Duplicates are only bugs the caller may open
 * (a tester's own reports; admins every bug). Severity, priority and assignees are the
 * team's experience, answered as values and counts only, never another's bug; for a tester
 * they weigh others' bugs by title alone (a tester never reads others' descriptions).
 */
export async function suggestTriage(
  db: Kysely<ReadModelDb>,
  actor: Actor,
  input: TriageRequest,
): Promise<TriageSuggestions> {
  const title = input.title.trim();
  const description = input.description.trim();
  if (title.length < triageLimits.titleMinChars && description.length === 0) return noSuggestions;
  // Duplicates and descriptions: the bugs the caller may open, when that is not every bug.
  const visible = visibleBugScope(actor);
  const own = visible.kind === 'all' ? undefined : visible;
  const { hiddenProjects } = actor;
  const [words, stats] = await Promise.all([queryWords(db, title, description), wordStats(db)]);
  if (words.length === 0) return noSuggestions;
  const [team, mine] = await Promise.all([
    findSimilarBugs(db, { title, description, hiddenProjects, ...(own ? { descriptionsOf: own } : {}) }, words, stats),
    own
      ? findSimilarBugs(db, { title, description, hiddenProjects, within: own, descriptionsOf: own }, words, stats)
      : null,
  ]);
  const teamRanked = ranked(team);
  const duplicates: DuplicateSuggestion[] = ranked(mine ?? team)
    .filter((b) => b.score >= DUPLICATE_MIN_SCORE)
    .slice(0, triageLimits.duplicates)
    .map((b) => ({ _id: b.id, number: b.number, title: b.title, status: b.status, score: round2(b.score) }));

  const similar = teamRanked.filter((b) => b.score >= NEIGHBOUR_MIN_SCORE);
  const neighbours = similar.slice(0, triageLimits.neighbours);
  const severity = majority<Severity>(neighbours, (b) => b.severity, triageReasons.severity);
  const priority = majority<Priority>(neighbours, (b) => b.priority, triageReasons.priority);

  const closed = similar.filter((b) => b.status === 'Closed').slice(0, CLOSED_NEIGHBOURS);
  let assignees: AssigneeSuggestion[] = [];
  if (closed.length > 0) {
    const closers = await findClosers(
      db,
      closed.map((b) => b.id),
    );
    const people = new Set([...closers.values(), ...closed.flatMap((b) => b.assigneeIds)]);
    const developers = await findActiveDevelopers(db, [...people]);
    assignees = rankAssignees(closed, closers, developers);
  }
  return { duplicates, severity, priority, assignees };
}
