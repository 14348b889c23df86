import { randomUUID } from 'node:crypto';
import { dueDecider, dueReminderWindowMs, streams } from '@bugtrail/domain';
import type { CommandHandler } from '@bugtrail/eventstore';
import type { Logger } from '@bugtrail/platform';
import type pg from 'pg';
import { PeriodicLeader } from '../runtime/periodic-leader.js';
import { READ_MODEL_SCHEMA } from '../runtime/projection.js';

const LEADER_LOCK = 7310060;

/**
 * The open bugs due by `$1`. Its first three conditions are the predicate of the bugs
 * projection's `bugs_due` index: the look reads the open bugs with a due date, not every bug.
 */
export const DUE_BUGS_SQL = `select id, dto->>'dueDate' as due from ${READ_MODEL_SCHEMA}.bugs
  where not deleted and status <> 'Closed' and dto->>'dueDate' is not null
    and (dto->>'dueDate')::timestamptz <= $1::timestamptz`;

export type DueRemindersOptions = {
  logger: Logger;
  /** How often the clock is looked at (default a minute). */
  intervalMs?: number;
  now?: () => Date;
};

/**
 * The clock's part in notifications: one leader at a time looks, every minute, for open
 * bugs due within a day or past due (the bugs read model says which may be), and asks the
 * bug's stream, through the one command handler, to notice it (`NoticeDue`). The decider
 * says it once per due date; the event id derives from the bug, the kind and the date, so
 * two leaders in a race, or a restart, append it once.
 */
export class DueReminders {
  private readonly leader: PeriodicLeader;

  constructor(
    private readonly commands: CommandHandler,
    private readonly pool: pg.Pool,
    private readonly options: DueRemindersOptions,
  ) {
    this.leader = new PeriodicLeader(
      pool,
      LEADER_LOCK,
      'due reminders',
      options.logger,
      options.intervalMs ?? 60_000,
      () => this.runOnce(),
    );
  }

  start(): void {
    this.leader.start();
  }

  async stop(): Promise<void> {
    await this.leader.stop();
  }

  /** One look at the clock (now, or the moment given): the number of reminders appended. */
  async runOnce(at?: Date): Promise<number> {
    const now = at ?? this.options.now?.() ?? new Date();
    const { rows } = await this.pool.query<{ id: string; due: string }>(DUE_BUGS_SQL, [
      new Date(now.getTime() + dueReminderWindowMs).toISOString(),
    ]);
    let appended = 0;
    for (const row of rows) {
      // Leading lost mid-pass (a call made outside the loop, as tests do, is not stopped).
      if (this.leader.isRunning && !this.leader.isLeading) break;
      const kind = Date.parse(row.due) <= now.getTime() ? 'overdue' : 'due-soon';
      const handled = await this.commands.handle(
        streams.bug(row.id),
        dueDecider,
        { type: 'NoticeDue', data: { bugId: row.id }, metadata: { actor: null, now: now.toISOString() } },
        {
          actor: null,
          correlationId: randomUUID(),
          idempotencyKey: `due-reminder:${kind}:${row.id}:${row.due}`,
        },
        { retryOnConflict: true },
      );
      if (!handled.replayed) appended += handled.newEvents.length;
    }
    return appended;
  }
}
