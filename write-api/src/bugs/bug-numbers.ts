import { randomUUID } from 'node:crypto';
import { bugDecider, streams } from '@bugtrail/domain';
import { type CommandHandler, type EventStore, START } from '@bugtrail/eventstore';
import type { Logger } from '@bugtrail/platform';
import type pg from 'pg';

/** Keeps two backfills (two write-apis starting together) from numbering the same bugs twice. */
const BACKFILL_LOCK = 7310040;
const PAGE = 2000;

/**
 * Bug numbers (#42, api.md "Bug numbers"): decided on the write side so the report's
 * own answer and its event carry the number. `write_api.bug_numbers` maps each bug to
 * the number a sequence gave it, once: a retried report (the same bug id) gets the
 * same number back. Only a report the decider accepted asks for one, so refused
 * reports leave no gap; a report that fails after (the store unreachable, a crash)
 * leaves one, and the number is never reused.
 */
export class BugNumbers {
  constructor(private readonly pool: pg.Pool) {}

  /** This bug's number: the one it already has, or the next. */
  async assign(bugId: string): Promise<number> {
    const { rows } = await this.pool.query<{ number: number }>(
      `with known as (select number from write_api.bug_numbers where bug_id = $1),
        fresh as (
          insert into write_api.bug_numbers (bug_id)
          select $1 where not exists (select 1 from known)
          on conflict (bug_id) do nothing
          returning number)
      select number from known union all select number from fresh`,
      [bugId],
    );
    const number = rows[0]?.number;
    if (number !== undefined) return number;
    // Lost a race with the same bug's retry: its row is committed now.
    const again = await this.pool.query<{ number: number }>(
      'select number from write_api.bug_numbers where bug_id = $1',
      [bugId],
    );
    if (!again.rows[0]) throw new Error(`no number for bug ${bugId}`);
    return again.rows[0].number;
  }

  /** Numbers for many new bugs at once, in the order given (loaders that append reports themselves). */
  async assignMany(bugIds: readonly string[]): Promise<number[]> {
    if (bugIds.length === 0) return [];
    const { rows } = await this.pool.query<{ bug_id: string; number: number }>(
      `insert into write_api.bug_numbers (bug_id, number)
       select id, nextval('write_api.bug_number_seq') from unnest($1::text[]) with ordinality as x(id, i) order by i
       on conflict (bug_id) do update set bug_id = excluded.bug_id
       returning bug_id, number`,
      [bugIds],
    );
    const byId = new Map(rows.map((r) => [r.bug_id, r.number]));
    return bugIds.map((id) => byId.get(id)!);
  }

  /**
   * Bugs reported before numbers existed get theirs, in report order, before this
   * write-api serves (so they come before every new one): a BugNumbered event each,
   * through the one write path. Runs once per database; later starts skip at once.
   */
  async backfill(store: EventStore, commands: CommandHandler, logger?: Logger): Promise<number> {
    const client = await this.pool.connect();
    try {
      await client.query('select pg_advisory_lock($1)', [BACKFILL_LOCK]);
      const done = await client.query('select 1 from write_api.bug_number_backfill');
      if (done.rowCount) return 0;
      const unnumbered: string[] = [];
      let from = START;
      for (;;) {
        const page = await store.readAll(from, PAGE);
        for (const e of page) {
          if (e.type !== 'BugReported') continue;
          const data = e.data as { bugId: string; number?: number };
          if (data.number === undefined) unnumbered.push(data.bugId);
        }
        if (page.length === 0) break;
        from = page[page.length - 1]!.position;
      }
      const now = new Date().toISOString();
      for (const bugId of unnumbered) {
        const number = await this.assign(bugId);
        await commands.handle(
          streams.bug(bugId),
          bugDecider,
          { type: 'NumberBug', data: { bugId, number }, metadata: { actor: null, now } },
          { actor: null, correlationId: randomUUID(), idempotencyKey: null },
          { retryOnConflict: true },
        );
      }
      await client.query('insert into write_api.bug_number_backfill (numbered) values ($1)', [unnumbered.length]);
      if (unnumbered.length > 0) logger?.info('numbered the bugs reported before numbers', { bugs: unnumbered.length });
      return unnumbered.length;
    } finally {
      await client.query('select pg_advisory_unlock($1)', [BACKFILL_LOCK]).catch(() => {});
      client.release();
    }
  }
}
