import { generateKeyBetween } from 'fractional-indexing';
import { z } from 'zod';
import { ConflictError } from '../core/errors.js';
import type { Command } from '../core/event.js';
import type { BugState, ReportedBug } from './bug.js';
import type { BugEvent } from './bug-events.js';
import { actorOf, existingBug, refuse } from './guards.js';
import { bugPermissions } from './permissions.js';

/**
 * A bug's place in its board column (api.md "Board", issue 36): `rank`, a string that sorts
 * ascending (byte order, `collate "C"`), made by fractional indexing so a move writes one bug,
 * never renumbers the others.
 *
 * A bug nobody moved has its default rank, derived from its number in its project so the newest
 * is on top: an integer key of fractional-indexing (head `g`, seven base-62 digits) of
 * 62⁷ − number. It costs the report nothing; only a move records a rank (`BugRanked`). Moving a
 * bug to another project gives it that project's default again.
 */
export const rankMessages = {
  cannotRank: "You don't have permission to move this bug",
  boardChanged: 'The board changed: reload it and move the card again',
  notBeside: 'A bug cannot be placed beside itself',
} as const;

const DIGITS = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const WIDTH = 7;
const TOP = 62 ** WIDTH;
/** The integer keys of width 7 start with `g` (`a` is one digit, `b` two, …). */
const HEAD = 'g';

function base62(value: number): string {
  let out = '';
  let rest = value;
  for (let i = 0; i < WIDTH; i++) {
    out = DIGITS[rest % 62]! + out;
    rest = Math.floor(rest / 62);
  }
  return out;
}

function fromBase62(digits: string): number {
  let value = 0;
  for (const digit of digits) value = value * 62 + DIGITS.indexOf(digit);
  return value;
}

/** The rank of a bug nobody moved: newest on top. An old bug without a number yet goes last. */
export function defaultRank(projectNumber: number | null): string {
  const n = Math.min(Math.max(projectNumber ?? 0, 0), TOP - 62 ** (WIDTH - 1));
  return HEAD + base62(TOP - n);
}

/** Where the bug is in its column: the rank it was given, else its default. */
export const rankOf = (bug: Pick<ReportedBug, 'rank' | 'projectNumber'>): string =>
  bug.rank ?? defaultRank(bug.projectNumber);

/**
 * The bugs nobody moved whose default rank is below `rank` are those with a project number of at
 * least this (`'below'`); those above it, of at most this (`'above'`). Lets write-api find a
 * neighbour's rank among default ones with one look at the project's numbers.
 */
export function defaultRankNumberBound(rank: string, side: 'below' | 'above'): number {
  if (rank < HEAD) return side === 'below' ? Number.POSITIVE_INFINITY : Number.POSITIVE_INFINITY;
  if (rank >= 'h') return side === 'below' ? 0 : Number.NEGATIVE_INFINITY;
  const value = fromBase62(rank.slice(1, 1 + WIDTH).padEnd(WIDTH, '0'));
  const exact = rank.length === 1 + WIDTH;
  // defaultRank(n) = g + (TOP − n): below `rank` when TOP − n < value (or ≤ when rank has a fraction).
  if (side === 'below') return exact ? TOP - value + 1 : TOP - value;
  // Above `rank`: TOP − n > value, so n < TOP − value.
  return TOP - value - 1;
}

/** The key between two ranks (either may be open); throws the board's conflict when they are out of order. */
export function rankBetween(lo: string | null, hi: string | null): string {
  if (lo !== null && hi !== null && lo >= hi) throw new ConflictError(rankMessages.boardChanged);
  return generateKeyBetween(lo, hi);
}

const id = z.string().min(1).max(100);
export const rankEventSchemas = {
  BugRanked: { version: 1, data: z.object({ bugId: id, rank: z.string().min(1).max(200) }) },
} as const;

/**
 * `PUT /api/bugs/{id}/rank`: `lo` and `hi` are the ranks it goes between, as write-api read them
 * from the neighbours named (and their own neighbours where only one was named); null is open.
 */
export type RankBug = Command<'RankBug', { bugId: string; lo: string | null; hi: string | null }>;

export function decideRank(command: RankBug, state: BugState): BugEvent[] {
  const actor = actorOf(command);
  const bug = existingBug(state, actor);
  if (!bugPermissions.canEdit(actor, bug) && !bugPermissions.canWorkOn(actor, bug)) {
    refuse(actor, bug, rankMessages.cannotRank);
  }
  const { lo, hi } = command.data;
  const now = rankOf(bug);
  // Already there: nothing to record.
  if ((lo === null || lo < now) && (hi === null || now < hi)) return [];
  return [{ type: 'BugRanked', data: { bugId: bug.id, rank: rankBetween(lo, hi) } }];
}

/** The rank a bug was given after `event`: a move to another project gives it that project's default. */
export function evolveRank(rank: string | null, event: BugEvent): string | null {
  if (event.type === 'BugRanked') return event.data.rank;
  if (event.type === 'BugMovedToProject') return null;
  return rank;
}
