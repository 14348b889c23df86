import type { BugScope, BugStatus, Priority, Severity } from '@bugtrail/domain';
import { type Kysely, sql } from 'kysely';
import { READ_MODEL_SCHEMA } from '../runtime/projection.js';
import type { ReadModelDb } from '../schema.js';
import { bugScopeSql, outsideProjectsSql } from './bug-visibility.js';

/**
 * The SQL behind read-api's triage suggestions (ADR 019): bugs like the one being typed, found by
 * full-text search over titles and descriptions (the bugs read model's `search` vector and
 * its GIN index) and scored with pg_trgm's trigram similarity of the titles and the share
 * of words in common; then who closed the similar ones and how busy they are now. Every
 * query reads the read models.
 *
 * The search must stay selective at 100k bugs, because every match is ranked and ranking
 * a row costs tens of microseconds: a title shares single words ("page", "button") with
 * thousands of bugs, and descriptions share boilerplate ("steps", "expected"). So it asks
 * for combinations of the query's words that few bugs hold, `(a & b) | (c & d & e) | …`,
 * judged by how often each word occurs: PostgreSQL's own statistics of the `search` column
 * (`pg_stats.most_common_elems`, kept by ANALYZE), so no table of word counts is kept.
 */

/** Candidates the word search ranks and hands on for scoring. */
const CANDIDATES = 60;
/** Words of the title, and of the description, that count (for the search and the score). */
const TITLE_WORDS = 12;
const DESCRIPTION_WORDS = 12;
/** The most bugs one combination of words, and all of them together, may be expected to match. */
const ROWS_PER_COMBINATION = 200;
const ROWS_IN_ALL = 500;
/** How many combinations one word may be part of. */
const COMBINATIONS_PER_WORD = 2;
/** How long the word statistics are trusted before they are read again. */
const STATS_TTL_MS = 5 * 60_000;

const t = (table: string) => sql.id(READ_MODEL_SCHEMA, table);

/** The words of a text, lower case, letters and digits only, in order, once each. */
export function wordsOf(text: string, max: number, skip: ReadonlySet<string> = new Set()): string[] {
  const words: string[] = [];
  for (const [word] of text.toLowerCase().matchAll(/[\p{L}\p{N}]+/gu)) {
    if (words.length >= max) break;
    if (word.length < 2 || skip.has(word) || words.includes(word)) continue;
    words.push(word);
  }
  return words;
}

/** How often words occur in bugs: the share of rows holding each common lexeme. */
export type WordStats = Readonly<{
  /** Rows in the bugs table (PostgreSQL's estimate). */
  rows: number;
  frequency: ReadonlyMap<string, number>;
  /** The share assumed for a word not among the common ones. */
  rare: number;
}>;

const statsCache = new WeakMap<object, { at: number; stats: Promise<WordStats> }>();

/** The `search` column's lexeme statistics (ANALYZE's), cached for a few minutes per database. */
export function wordStats(db: Kysely<ReadModelDb>, now = Date.now()): Promise<WordStats> {
  const cached = statsCache.get(db);
  if (cached && now - cached.at < STATS_TTL_MS) return cached.stats;
  const stats = sql<{ elems: string[] | null; freqs: number[] | null; rows: number }>`
    select s.most_common_elems::text::text[] as elems, s.most_common_elem_freqs::float8[] as freqs,
      -- Never analyzed (-1): count once (cached like the rest).
      (case when c.reltuples >= 0 then c.reltuples else (select count(*) from ${t('bugs')}) end)::float8 as rows
    from pg_class c join pg_namespace n on n.oid = c.relnamespace
    left join pg_stats s on s.schemaname = n.nspname and s.tablename = c.relname and s.attname = 'search'
    where n.nspname = ${READ_MODEL_SCHEMA} and c.relname = 'bugs'`
    .execute(db)
    .then(({ rows: [row] }): WordStats => {
      const elems = row?.elems ?? [];
      // For a tsvector the frequencies are followed by their minimum, maximum and the null share.
      const freqs = row?.freqs ?? [];
      const frequency = new Map(elems.map((e, i) => [e, freqs[i] ?? 0]));
      const least = elems.length > 0 ? (freqs[elems.length] ?? 0) : 0;
      // Without statistics yet (a young table), every word is taken as fairly common.
      return { rows: row?.rows ?? 0, frequency, rare: least > 0 ? least / 2 : 0.05 };
    });
  statsCache.set(db, { at: now, stats });
  stats.catch(() => statsCache.delete(db));
  return stats;
}

export type QueryWord = Readonly<{ lexeme: string; inTitle: boolean }>;

/**
 * The tsquery text that finds candidates: combinations of the words, rarest first, each
 * expected (by the statistics) to match at most
 * ROWS_PER_COMBINATION bugs and all together at most ROWS_IN_ALL: single rare words, else
 * pairs, else triples. The title's words only, when it has two or more: descriptions share
 * boilerplate whose words always go together. Null
 * when nothing is selective enough. Lexemes are quoted, so the text is a safe tsquery.
 */
export function candidateQuery(words: readonly QueryWord[], stats: WordStats): string | null {
  const titleWords = words.filter((w) => w.inTitle);
  const pool = titleWords.length >= 2 ? titleWords : words;
  const share = (w: QueryWord) => stats.frequency.get(w.lexeme) ?? stats.rare;
  // Words of one phrase go together ("sidebar toggle", "new users"): independence would
  // guess far too few rows. So only the rarest word counts fully, the others by their root.
  const expected = (combo: readonly QueryWord[]) => {
    const [rarest, ...others] = combo.map(share).sort((a, b) => a - b);
    return others.reduce((n, f) => n * Math.sqrt(f), stats.rows * rarest!);
  };
  const byRarity = [...pool].sort((a, b) => share(a) - share(b) || a.lexeme.localeCompare(b.lexeme));
  const combos: QueryWord[][] = [];
  let total = 0;
  const covered = (combo: QueryWord[]) => combos.some((c) => c.every((w) => combo.includes(w)));
  // No word in every combination: it may be the reporter's own way of saying it.
  const uses = new Map<QueryWord, number>();
  const overused = (combo: QueryWord[]) => combo.some((w) => (uses.get(w) ?? 0) >= COMBINATIONS_PER_WORD);
  const consider = (combo: QueryWord[]) => {
    const rows = expected(combo);
    if (rows > ROWS_PER_COMBINATION || total + rows > ROWS_IN_ALL || covered(combo) || overused(combo)) return;
    combos.push(combo);
    total += rows;
    for (const w of combo) uses.set(w, (uses.get(w) ?? 0) + 1);
  };
  const n = byRarity.length;
  for (let i = 0; i < n; i++) consider([byRarity[i]!]);
  for (let i = 0; i < n; i++) for (let j = i + 1; j < n; j++) consider([byRarity[i]!, byRarity[j]!]);
  for (let i = 0; i < n; i++)
    for (let j = i + 1; j < n; j++)
      for (let k = j + 1; k < n; k++) consider([byRarity[i]!, byRarity[j]!, byRarity[k]!]);
  if (combos.length === 0) return null;
  const quote = (w: QueryWord) => `'${w.lexeme.replaceAll("'", "''")}'`;
  return combos.map((c) => (c.length === 1 ? quote(c[0]!) : `(${c.map(quote).join(' & ')})`)).join(' | ');
}

export type SimilarBug = {
  id: string;
  number: number | null;
  title: string;
  status: BugStatus;
  severity: Severity;
  priority: Priority;
  reporterId: string;
  assigneeIds: string[];
  /** pg_trgm similarity of the titles, 0–1. */
  titleSimilarity: number;
  /** The share of the query's words (stemmed, no stop words) the bug contains, 0–1. */
  wordCoverage: number;
};

export type SimilarQuery = Readonly<{
  title: string;
  description: string;
  /** Only these bugs (the caller's visibleBugScope: a tester's duplicates); all bugs without it. */
  within?: BugScope;
  /**
   * Whose descriptions may count: only these bugs' (the caller's visibleBugScope, for a
   * tester, who never reads others' descriptions), every bug's without it. Others' bugs are
   * then scored by their titles alone (their words may still bring them among the
   * candidates, which tells the caller nothing: a candidate with an unlike title scores
   * too low to matter).
   */
  descriptionsOf?: BugScope;
  /** Private projects the caller is no member of: their bugs count for nothing here. */
  hiddenProjects?: readonly string[] | undefined;
}>;

type Row = {
  id: string;
  number: number | null;
  title: string;
  status: BugStatus;
  severity: Severity;
  priority: Priority;
  reporter_id: string;
  assignee_ids: string[];
  title_sim: number;
  words: number;
};

/** The query's words as the `search` vector holds them: stemmed by the english configuration, stop words dropped. */
export async function queryWords(db: Kysely<ReadModelDb>, title: string, description: string): Promise<QueryWord[]> {
  const titleWords = wordsOf(title, TITLE_WORDS);
  const descriptionWords = wordsOf(description, DESCRIPTION_WORDS, new Set(titleWords));
  if (titleWords.length + descriptionWords.length === 0) return [];
  const { rows } = await sql<{ lexeme: string; in_title: boolean }>`
    select lexeme, true as in_title from unnest(to_tsvector('english', ${titleWords.join(' ')}))
    union
    select lexeme, false from unnest(to_tsvector('english', ${descriptionWords.join(' ')}))`.execute(db);
  const inTitle = new Set(rows.filter((r) => r.in_title).map((r) => r.lexeme));
  const all = new Map<string, QueryWord>();
  for (const r of rows) all.set(r.lexeme, { lexeme: r.lexeme, inTitle: inTitle.has(r.lexeme) });
  return [...all.values()];
}

/**
 * Live bugs like the words, each with its two similarities (unordered; the caller scores).
 * Others' bugs, when `descriptionsOf` is set, are scored by their titles only.
 */
export async function findSimilarBugs(
  db: Kysely<ReadModelDb>,
  query: SimilarQuery,
  words: readonly QueryWord[],
  stats: WordStats,
): Promise<SimilarBug[]> {
  const tsquery = candidateQuery(words, stats);
  if (tsquery === null) return [];
  const title = query.title.trim();
  // Built per call, not `$1 is null or …`: the planner then sees which indexes apply.
  const inScope = sql`${bugScopeSql(query.within ?? { kind: 'all' }, 'b')} and ${outsideProjectsSql(query.hiddenProjects, 'b')}`;
  const searchable =
    query.descriptionsOf === undefined
      ? sql`b.search`
      : sql`case when ${bugScopeSql(query.descriptionsOf, 'b')} then b.search else to_tsvector('english', b.dto->>'title') end`;
  const lexemes = words.map((w) => w.lexeme);
  const { rows } = await sql<Row>`
    with q as (select ${tsquery}::tsquery as tsq),
    found as (
      select b.id from ${t('bugs')} b, q
      where not b.deleted and b.search @@ q.tsq and ${inScope}
      order by ts_rank(b.search, q.tsq) desc limit ${CANDIDATES}
    )
    select b.id, b.number, b.dto->>'title' as title, b.status, b.severity, b.priority, b.reporter_id, b.assignee_ids,
      similarity(b.dto->>'title', ${title})::float8 as title_sim,
      (select count(*) from unnest(tsvector_to_array(${searchable})) l where l = any(${lexemes}::text[]))::int as words
    from found join ${t('bugs')} b on b.id = found.id`.execute(db);
  return rows.map((r) => ({
    id: r.id,
    number: r.number,
    title: r.title,
    status: r.status,
    severity: r.severity,
    priority: r.priority,
    reporterId: r.reporter_id,
    assigneeIds: r.assignee_ids,
    titleSimilarity: title.length > 0 ? r.title_sim : 0,
    wordCoverage: words.length > 0 ? r.words / words.length : 0,
  }));
}

/** Who closed each bug (the actor of its status change to Closed, from the flow read model). */
export async function findClosers(db: Kysely<ReadModelDb>, bugIds: readonly string[]): Promise<Map<string, string>> {
  if (bugIds.length === 0) return new Map();
  const { rows } = await sql<{ bug_id: string; entered_by: string | null }>`
    select bug_id, entered_by from ${t('bug_intervals')}
    where bug_id = any(${bugIds}::text[]) and field = 'status' and left_at is null and value = 'Closed'`.execute(db);
  return new Map(rows.flatMap((r) => (r.entered_by ? [[r.bug_id, r.entered_by] as const] : [])));
}

export type ActiveDeveloper = { id: string; name: string; open: number };

/** Of these people, the active (not deactivated) developers, each with how many bugs they have open now. */
export async function findActiveDevelopers(
  db: Kysely<ReadModelDb>,
  ids: readonly string[],
): Promise<Map<string, ActiveDeveloper>> {
  if (ids.length === 0) return new Map();
  const { rows } = await sql<{ id: string; name: string; open: number }>`
    select u.id, u.name, coalesce((
      select sum(c.n) from ${t('bug_counters')} c
      where c.scope = 'assignee:' || u.id and c.dim = 'status' and c.value <> 'Closed'
    ), 0)::int as open
    from ${t('users')} u
    where u.id = any(${ids}::text[]) and u.role = 'developer' and not u.deactivated`.execute(db);
  return new Map(rows.map((r) => [r.id, r]));
}
