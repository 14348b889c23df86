import { type BugState, defaultRank, defaultRankNumberBound } from '@bugtrail/domain';
import type pg from 'pg';

/**
 * The ranks people gave bugs by moving them on a board (`write_api.bug_ranks`, ADR 026): written
 * in the transaction of each `BugRanked` (and cleared by a move to another project, which gives
 * the bug its new project's default), read to find a moved card's neighbour when the client names
 * only one side. A bug nobody moved has its default rank (rank.ts), derived from its number in
 * the project, so `write_api.project_bug_numbers` answers for those.
 */
export class BugRanks {
  constructor(private readonly db: pg.Pool | pg.ClientBase) {}

  /** The bug's given rank as the decided state has it (none: its default). */
  static async write(tx: pg.ClientBase, state: BugState): Promise<void> {
    if (state.kind !== 'reported') return;
    if (state.rank === null) {
      await tx.query('delete from write_api.bug_ranks where bug_id = $1', [state.id]);
      return;
    }
    await tx.query(
      `insert into write_api.bug_ranks (bug_id, project_id, rank) values ($1, $2, $3)
       on conflict (bug_id) do update set project_id = excluded.project_id, rank = excluded.rank`,
      [state.id, state.projectId, state.rank],
    );
  }

  /**
   * The nearest rank in the project below `rank` (`'below'`) or above it (`'above'`), the moved
   * bug left out; null when there is none. It may be a default rank no bug holds now (a bug that
   * was moved since, or moved away): still no rank of the project lies between it and `rank`, so
   * a key between the two lands right beside the bug named.
   */
  async neighbour(projectId: string, rank: string, side: 'below' | 'above', movedId: string): Promise<string | null> {
    const bound = defaultRankNumberBound(rank, side);
    // ±∞: every default rank is on the far side of `rank` (none), or on this side (any number).
    const anyNumber = side === 'above' && bound === Number.POSITIVE_INFINITY;
    const params: unknown[] = [projectId, rank, movedId];
    let numberSql = 'null::int';
    if (Number.isFinite(bound) || anyNumber) {
      const limit = anyNumber ? '' : side === 'below' ? 'and number >= $4' : 'and number <= $4';
      if (!anyNumber) params.push(Math.max(bound, 0));
      numberSql = `(select ${side === 'below' ? 'min' : 'max'}(number) from write_api.project_bug_numbers
        where project_id = $1 and bug_id <> $3 ${limit})`;
    }
    const rankSql =
      side === 'below'
        ? '(select max(rank) from write_api.bug_ranks where project_id = $1 and rank < $2 and bug_id <> $3)'
        : '(select min(rank) from write_api.bug_ranks where project_id = $1 and rank > $2 and bug_id <> $3)';
    const { rows } = await this.db.query<{ given: string | null; number: number | null }>(
      `select ${rankSql} as given, ${numberSql} as number`,
      params,
    );
    const given = rows[0]?.given ?? null;
    const number = rows[0]?.number ?? null;
    const fromDefault = number === null ? null : defaultRank(number);
    if (given === null) return fromDefault;
    if (fromDefault === null) return given;
    // The nearer of the two.
    return side === 'below' ? (given > fromDefault ? given : fromDefault) : given < fromDefault ? given : fromDefault;
  }
}
