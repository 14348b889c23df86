import { randomUUID } from 'node:crypto';
import { loadConfig, readModelPosition, silentLogger } from '@bugtrail/platform';
import { simulateRule } from '@bugtrail/projector';
import { event, reportBug, userRegistered } from '../demo/bug-events.js';
import { createSystem } from '../system.js';
import { percentile, round, runConcurrent } from './stats.js';
import type { BenchContext, BenchRow, BenchSuite } from './types.js';

const RULES = 20;

/**
 * Automation rules (issue 38). First, 20 rules active (each "reported in module mK → priority
 * High") while reports are appended at a steady 500/s, each matching one rule: from the report's
 * append to the rule's change visible in the bugs read model, beside the same reports becoming
 * visible themselves (the projector alone). Second, one rule simulated over a whole log, events
 * read per second, beside the projector catching up on the same log from nothing (both read every
 * event once; the projector also writes every read model).
 */
export const automationsSuite: BenchSuite = {
  name: 'automations',
  async run(ctx) {
    return [await triggerToEffect(ctx), ...(await simulation(ctx))];
  },
};

const config = () => ({ ...loadConfig({}), logLevel: 'silent' as const });

async function triggerToEffect(ctx: BenchContext): Promise<BenchRow> {
  const quick = ctx.quick;
  const database = await ctx.createDatabase();
  const system = await createSystem({
    config: config(),
    databaseUrl: database.url,
    logger: silentLogger,
    parts: ['projector'],
  });
  const adminId = randomUUID();
  const now = () => new Date().toISOString();
  const rate = 500;
  const seconds = quick ? 4 : 10;
  const appendedAt = new Map<string, number>();
  const effects: number[] = [];
  const visible: number[] = [];
  let acting = 0;
  try {
    await system.store.append(
      `user-${adminId}`,
      [
        userRegistered(
          { id: adminId, name: 'Bench Admin', email: 'bench-admin@example.com', role: 'admin' },
          { at: now() },
        ),
      ],
      'no_stream',
    );
    let last = '';
    for (let k = 0; k < RULES; k++) {
      const automationId = randomUUID();
      const result = await system.store.append(
        `automation-${automationId}`,
        [
          event(
            'AutomationCreated',
            {
              automationId,
              name: `Bench rule ${k}`,
              projectId: null,
              enabled: true,
              when: { event: 'bug.reported', conditions: [{ field: 'module', op: 'is', value: `m${k}` }] },
              actions: [{ type: 'set_field', field: 'priority', value: 'High' }],
            },
            { actorId: adminId, at: now() },
          ),
        ],
        'no_stream',
      );
      last = result.position;
    }
    await system.changeFeed.waitFor(last, 30_000);

    // The rules' changes as they are appended (read off the log after the rules), each timed to
    // the moment the read models hold it: no polling of the bug rows.
    let watching = true;
    let stoppedAt = 0;
    let lastEffect = 0;
    const seen: Promise<void>[] = [];
    const watcher = (async () => {
      let after = last;
      const deadline = () => (watching ? Number.POSITIVE_INFINITY : stoppedAt + 120_000);
      while (seen.length < rate * seconds && performance.now() < deadline()) {
        const page = await system.store.readAll(after, 1000);
        for (const e of page) {
          after = e.position;
          if (e.type !== 'BugDetailsEdited' || !e.metadata.rule) continue;
          const t0 = appendedAt.get((e.data as { bugId: string }).bugId);
          if (t0 === undefined) continue;
          seen.push(
            system.changeFeed.waitFor(e.position, 120_000).then(() => {
              lastEffect = performance.now();
              effects.push(lastEffect - t0);
            }),
          );
        }
        if (page.length < 1000) await new Promise((r) => setTimeout(r, 5));
      }
      await Promise.all(seen);
    })();
    const pending: Promise<void>[] = [];
    const started = performance.now();
    for (let i = 0; i < rate * seconds; i++) {
      const wait = started + (i * 1000) / rate - performance.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      pending.push(
        (async () => {
          const bugId = randomUUID();
          const [reported] = reportBug(
            {
              bugId,
              reporterId: adminId,
              title: `Rule bench ${i}`,
              // Valid as a person's edit would need it: the rule's change goes through the same checks.
              description: 'Reported by the automation bench.',
              priority: 'Low',
              module: `m${i % RULES}`,
              assigneeIds: [],
            },
            { at: now() },
          );
          const result = await system.store.append(`bug-${bugId}`, [reported!], 'no_stream');
          const t0 = performance.now();
          appendedAt.set(bugId, t0);
          if (await system.changeFeed.waitFor(result.position, 10_000)) visible.push(performance.now() - t0);
        })(),
      );
    }
    await Promise.all(pending);
    stoppedAt = performance.now();
    watching = false;
    await watcher;
    acting = (effects.length / (lastEffect - started)) * 1000;
  } finally {
    await system.close();
    await database.drop();
  }
  const total = rate * seconds;
  return {
    suite: 'automations',
    name: `${RULES} rules, reports at ${rate}/s: trigger → effect visible`,
    value: round(percentile(effects, 99), 1),
    unit: 'ms p99',
    baseline: { name: 'report → read model, same run', value: round(percentile(visible, 99), 1), unit: 'ms p99' },
    ratio: round(percentile(effects, 99) / percentile(visible, 99), 2),
    note: `${effects.length} of ${total} acted on, ${round(acting, 0)}/s; p50 ${round(percentile(effects, 50), 1)} ms (report p50 ${round(percentile(visible, 50), 1)} ms)`,
  };
}

async function simulation(ctx: BenchContext): Promise<BenchRow[]> {
  const { quick, log } = ctx;
  const database = await ctx.createDatabase();
  const bugs = quick ? 20_000 : 100_000;
  try {
    // The log, appended with no projector running.
    const writer = await createSystem({ config: config(), databaseUrl: database.url, logger: silentLogger, parts: [] });
    const reporterId = randomUUID();
    let head = '';
    try {
      await writer.store.append(
        `user-${reporterId}`,
        [
          userRegistered(
            { id: reporterId, name: 'Bench Tester', email: 'bench-tester@example.com', role: 'tester' },
            { at: new Date().toISOString() },
          ),
        ],
        'no_stream',
      );
      const base = Date.UTC(2026, 0, 1);
      await runConcurrent(bugs, 16, async (i) => {
        const bugId = randomUUID();
        const at = new Date(base + i * 60_000).toISOString();
        const result = await writer.store.append(
          `bug-${bugId}`,
          reportBug(
            {
              bugId,
              reporterId,
              title: `Simulated ${i}`,
              description: 'Bench',
              priority: (['Low', 'Medium', 'High'] as const)[i % 3],
              module: `m${i % 40}`,
              assigneeIds: [],
            },
            { at },
          ),
          'no_stream',
        );
        if (result.position > head) head = result.position;
      });
    } finally {
      await writer.close();
    }
    log(`automations: ${bugs} reports appended; simulating, then the projector catches up`);
    const reader = await createSystem({ config: config(), databaseUrl: database.url, logger: silentLogger, parts: [] });
    let simulated: { eventsRead: number; ms: number };
    try {
      const t0 = performance.now();
      const result = await simulateRule(
        reader.store,
        {
          id: null,
          projectId: null,
          when: { event: 'bug.reported', conditions: [{ field: 'priority', op: 'is', value: 'High' }] },
          actions: [{ type: 'add_label', labelId: 'urgent' }],
        },
        { from: new Date(0), to: new Date(Date.UTC(2100, 0, 1)) },
      );
      simulated = { eventsRead: result.eventsRead, ms: performance.now() - t0 };
    } finally {
      await reader.close();
    }
    // The projector (and the reactors beside it) from nothing to the head of the same log.
    const t1 = performance.now();
    const projector = await createSystem({
      config: config(),
      databaseUrl: database.url,
      logger: silentLogger,
      parts: ['projector'],
    });
    let caughtUpMs: number;
    let labelMs = Number.NaN;
    let policyMs = Number.NaN;
    try {
      for (;;) {
        if ((await readModelPosition(projector.pool)) >= head) break;
        await new Promise((r) => setTimeout(r, 100));
        if (performance.now() - t1 > 30 * 60_000) throw new Error('projector did not catch up in 30 minutes');
      }
      caughtUpMs = performance.now() - t1;
      // An SLA policy written over every one of those bugs (ADR 030: each bug's SLA recomputed in
      // the projector's batch), beside a label written (a batch that touches no bug).
      const visibleAfter = async (streamId: string, type: string, data: Record<string, unknown>) => {
        const t0 = performance.now();
        const written = await projector.store.append(
          streamId,
          [event(type, data, { actorId: null, at: new Date().toISOString() })],
          'no_stream',
        );
        if (!(await projector.changeFeed.waitFor(written.position, 600_000))) throw new Error(`${type} never visible`);
        return performance.now() - t0;
      };
      const labelId = randomUUID();
      labelMs = await visibleAfter(`label-${labelId}`, 'LabelCreated', {
        labelId,
        name: 'bench',
        color: '#1d76db',
        description: '',
      });
      const policyId = randomUUID();
      policyMs = await visibleAfter(`sla-${policyId}`, 'SlaPolicyCreated', {
        policyId,
        name: 'Bench policy',
        projectId: null,
        conditions: [],
        respondSeconds: 3600,
        resolveSeconds: 86_400,
        createdAt: new Date().toISOString(),
      });
    } finally {
      await projector.close();
    }
    const rate = simulated.eventsRead / (simulated.ms / 1000);
    const projected = simulated.eventsRead / (caughtUpMs / 1000);
    return [
      {
        suite: 'automations',
        name: `simulate a rule over ${simulated.eventsRead.toLocaleString('en-US')} events`,
        value: round(rate, 0),
        unit: 'events/s',
        baseline: { name: 'projector catching up on the same log', value: round(projected, 0), unit: 'events/s' },
        ratio: round(rate / projected, 2),
        note: `${round(simulated.ms / 1000, 1)} s; the projector ${round(caughtUpMs / 1000, 1)} s (start included)`,
      },
      {
        suite: 'automations',
        name: `an SLA policy written over ${bugs.toLocaleString('en-US')} bugs → every SLA in the read model`,
        value: round(policyMs, 0),
        unit: 'ms',
        baseline: { name: 'a label written → visible, same run', value: round(labelMs, 1), unit: 'ms' },
        ratio: round(policyMs / labelMs, 1),
        note: 'each bug recomputed in the projector’s batch (pages of 5,000), every row written',
      },
    ];
  } finally {
    await database.drop();
  }
}
