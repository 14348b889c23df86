import { randomUUID } from 'node:crypto';
import { type BugSla, breachKey, slaBreachDecider, slaTargets, streams } from '@bugtrail/domain';
import type { CommandHandler } from '@bugtrail/eventstore';
import type { Logger } from '@bugtrail/platform';
import type pg from 'pg';
import { PeriodicLeader } from '../runtime/periodic-leader.js';
import { READ_MODEL_SCHEMA } from '../runtime/projection.js';

const LEADER_LOCK = 7310110;

/**
 * The bugs with a breach to tell by `$1` (the bugs projection's `bugs_sla_tell` index), their
 * SLA, the breaches told, and their policy's name and since (breaches due before it are not told).
 */
export const SLA_TELL_SQL = `select b.id, b.dto->'sla' as sla, b.sla_told, p.since, p.name
  from ${READ_MODEL_SCHEMA}.bugs b join ${READ_MODEL_SCHEMA}.sla_policies p on p.id = b.sla_policy_id
  where b.sla_tell_at is not null and not b.deleted and b.sla_tell_at <= $1::timestamptz`;

export type SlaBreachesOptions = {
  logger: Logger;
  /** How often the clock is looked at (default 5 s: a breach is told within seconds). */
  intervalMs?: number;
  now?: () => Date;
};

/**
 * The clock's part in SLAs: one leader at a time looks every few seconds for bugs whose SLA target
 * passed unmet (the bugs read model says which may be), and asks the bug's stream, through the one
 * command handler, to tell it (`BugSlaBreached`, which notifies the assignees). The decider tells
 * each policy, target and due time once; the idempotency key derives from them, so two leaders in
 * a race, or a restart, append it once.
 */
export class SlaBreaches {
  private readonly leader: PeriodicLeader;

  constructor(
    private readonly commands: CommandHandler,
    private readonly pool: pg.Pool,
    private readonly options: SlaBreachesOptions,
  ) {
    this.leader = new PeriodicLeader(
      pool,
      LEADER_LOCK,
      'sla breaches',
      options.logger,
      options.intervalMs ?? 5000,
      () => this.runOnce(),
    );
  }

  start(): void {
    this.leader.start();
  }

  async stop(): Promise<void> {
    await this.leader.stop();
  }

  /** One look at the clock (now, or the moment given): the number of breaches appended. */
  async runOnce(at?: Date): Promise<number> {
    const now = at ?? this.options.now?.() ?? new Date();
    const { rows } = await this.pool.query<{
      id: string;
      sla: BugSla | null;
      sla_told: string[] | null;
      since: string;
      name: string;
    }>(SLA_TELL_SQL, [now.toISOString()]);
    let appended = 0;
    for (const row of rows) {
      if (!row.sla) continue;
      for (const target of slaTargets) {
        if (this.leader.isRunning && !this.leader.isLeading) return appended;
        const due = target === 'respond' ? row.sla.respondBy : row.sla.resolveBy;
        const done = target === 'respond' ? row.sla.respondedAt : row.sla.resolvedAt;
        if (due === null || done !== null || Date.parse(due) > now.getTime() || due < row.since) continue;
        const key = breachKey(row.sla.policy._id, target, due);
        if (row.sla_told?.includes(key)) continue;
        const handled = await this.commands.handle(
          streams.bug(row.id),
          slaBreachDecider,
          {
            type: 'NoticeSlaBreach',
            data: { bugId: row.id, policyId: row.sla.policy._id, policyName: row.name, target, dueAt: due },
            metadata: { actor: null, now: now.toISOString() },
          },
          { actor: null, correlationId: randomUUID(), idempotencyKey: `sla-breach:${row.id}:${key}` },
          { retryOnConflict: true },
        );
        if (!handled.replayed) appended += handled.newEvents.length;
      }
    }
    return appended;
  }
}
