import { generalProject } from '@bugtrail/domain';
import type pg from 'pg';

/**
 * Numbers within a project (`WEB-7`, api.md "Projects"): 1, 2, 3, … per project, never reused.
 * Like BugNumbers (#42), decided on the write side so the report's answer and its event carry
 * it: `write_api.project_counters` holds each project's last number (its row lock orders two
 * reports into one project; nothing else waits), `write_api.project_bug_numbers` each bug's
 * number in each project it has been in, given once: a retried report or move gets the same
 * number back. Only a decision the decider accepted asks for one, so a refusal leaves no gap;
 * an append that fails after (the store unreachable, a crash) leaves one.
 */
export class ProjectBugNumbers {
  constructor(private readonly pool: pg.Pool | pg.ClientBase) {}

  /** The bug's number in the project: the one it had there already, or the project's next. */
  async assign(projectId: string, bugId: string): Promise<number> {
    const [number] = await this.assignMany(projectId, [bugId]);
    return number!;
  }

  /** Numbers in one project for several bugs, in the order given (imports). */
  async assignMany(projectId: string, bugIds: readonly string[]): Promise<number[]> {
    if (bugIds.length === 0) return [];
    const known = await this.known(projectId, bugIds);
    const fresh = [...new Set(bugIds.filter((id) => !known.has(id)))];
    if (fresh.length > 0) {
      // One statement: the counter moves by as many as there are new bugs, and they take those numbers in order.
      const { rows } = await this.pool.query<{ bug_id: string; number: number }>(
        `with counter as (
           insert into write_api.project_counters as c (project_id, last) values ($1, $3)
           on conflict (project_id) do update set last = c.last + $3
           returning last),
         given as (
           insert into write_api.project_bug_numbers (project_id, bug_id, number)
           select $1, x.id, (select last from counter) - $3 + x.i from unnest($2::text[]) with ordinality as x(id, i)
           on conflict (project_id, bug_id) do nothing
           returning bug_id, number)
         select bug_id, number from given`,
        [projectId, fresh, fresh.length],
      );
      for (const row of rows) known.set(row.bug_id, row.number);
      // Lost a race with the same bug's retry: its number is committed now (the race's one gap).
      const missing = fresh.filter((id) => !known.has(id));
      if (missing.length > 0) for (const [id, n] of await this.known(projectId, missing)) known.set(id, n);
    }
    return bugIds.map((id) => {
      const number = known.get(id);
      if (number === undefined) throw new Error(`no number in project ${projectId} for bug ${id}`);
      return number;
    });
  }

  private async known(projectId: string, bugIds: readonly string[]): Promise<Map<string, number>> {
    const { rows } = await this.pool.query<{ bug_id: string; number: number }>(
      'select bug_id, number from write_api.project_bug_numbers where project_id = $1 and bug_id = any($2::text[])',
      [projectId, bugIds],
    );
    return new Map(rows.map((row) => [row.bug_id, row.number]));
  }

  /**
   * General's numbers go on from the installation-wide ones: a bug from before projects is
   * `BUG-{number}` (its number in General), so General's first new number comes after the
   * last of those. Once per database, after old bugs have their numbers (BugNumbers.backfill).
   */
  async seedGeneral(): Promise<void> {
    await this.pool.query(
      `insert into write_api.project_counters (project_id, last)
       select $1, coalesce(max(number), 0) from write_api.bug_numbers
       on conflict (project_id) do nothing`,
      [generalProject.id],
    );
  }
}
