import { randomUUID } from 'node:crypto';
import { type BugStatus, bugStatuses, priorities, severities } from '@bugtrail/domain';
import type { NewEvent } from '@bugtrail/eventstore';
import { http, prng, registerUser, type TestUser } from '@bugtrail/testing';
import { startTestSystem, type TestSystem } from '@bugtrail/testing/system';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { event, reportBug, statusChanged } from '../../../cli/src/demo/bug-events.js';

/**
 * Property: GET /api/metrics equals a naive replay of the same generated history (10,000
 * bugs walking through statuses at random, edited, reassigned and deleted over 20 weeks),
 * written here from api.md's definitions, for several moments, windows and groupings.
 */

const BUGS = Number(process.env.METRICS_PROPERTY_BUGS ?? 10_000);
const HOUR = 3_600_000;

/** One generated bug: its facts in time order (the oracle's input). */
type Fact =
  | { at: number; kind: 'report'; severity: string; priority: string; module: string | null; assignees: string[] }
  | { at: number; kind: 'status'; to: BugStatus }
  | { at: number; kind: 'severity'; to: string }
  | { at: number; kind: 'module'; to: string | null }
  | { at: number; kind: 'assign'; ids: string[] }
  | { at: number; kind: 'unassign'; ids: string[] }
  | { at: number; kind: 'delete' };
type Bug = { id: string; facts: Fact[] };

type Window = { asOf: number; from: number | null; to: number | null };
type Group = 'severity' | 'priority' | 'module' | 'assignee';

function percentiles(values: number[]) {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (p: number) => {
    if (sorted.length === 0) return null;
    const pos = p * (sorted.length - 1);
    const lo = Math.floor(pos);
    const hi = Math.ceil(pos);
    return sorted[lo]! + (sorted[hi]! - sorted[lo]!) * (pos - lo);
  };
  return { p50: at(0.5), p85: at(0.85), p95: at(0.95), count: sorted.length };
}

function isoWeek(ms: number): string {
  const d = new Date(ms);
  const day = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()));
  const weekday = (day.getUTCDay() + 6) % 7;
  day.setUTCDate(day.getUTCDate() - weekday + 3); // the Thursday of this week decides its year
  const year = day.getUTCFullYear();
  const firstThursday = new Date(Date.UTC(year, 0, 4));
  firstThursday.setUTCDate(firstThursday.getUTCDate() - ((firstThursday.getUTCDay() + 6) % 7) + 3);
  const week = 1 + Math.round((day.getTime() - firstThursday.getTime()) / (7 * 86_400_000));
  return `${year}-W${String(week).padStart(2, '0')}`;
}

/** The naive computation: replay each bug's facts up to asOf, then apply api.md's definitions. */
function oracle(bugs: Bug[], w: Window, group: Group | null) {
  const inWindow = (t: number) => (w.from === null || t >= w.from) && (w.to === null || t < w.to);
  const end = Math.min(w.to ?? w.asOf, w.asOf);
  const cycles: { seconds: number; keys: (string | null)[] }[] = [];
  const spentByStatus: Record<string, number> = {};
  const groups = new Map<string | null, { cycle: number[]; count: number; spent: Record<string, number> }>();
  const groupOf = (key: string | null) => {
    let g = groups.get(key);
    if (!g) {
      g = { cycle: [], count: 0, spent: {} };
      groups.set(key, g);
    }
    return g;
  };
  let windowed = 0;
  let reopened = 0;
  const weeks = new Map<string, { opened: number; closed: number }>();
  const week = (t: number) => {
    const k = isoWeek(t);
    const v = weeks.get(k) ?? { opened: 0, closed: 0 };
    weeks.set(k, v);
    return v;
  };
  const openAges: number[] = [];
  for (const bug of bugs) {
    const facts = bug.facts.filter((f) => f.at <= w.asOf);
    const first = facts[0];
    if (first?.kind !== 'report' || facts.some((f) => f.kind === 'delete')) continue;
    const created = first.at;
    let severity = first.severity;
    let module = first.module;
    const assignees = new Set(first.assignees);
    const stays: { status: BugStatus; enter: number; leave: number | null }[] = [
      { status: 'Open', enter: created, leave: null },
    ];
    for (const f of facts.slice(1)) {
      if (f.kind === 'status') {
        stays.at(-1)!.leave = f.at;
        stays.push({ status: f.to, enter: f.at, leave: null });
      } else if (f.kind === 'severity') severity = f.to;
      else if (f.kind === 'module') module = f.to;
      else if (f.kind === 'assign') for (const id of f.ids) assignees.add(id);
      else if (f.kind === 'unassign') for (const id of f.ids) assignees.delete(id);
    }
    const keys: (string | null)[] =
      group === 'severity'
        ? [severity]
        : group === 'priority'
          ? [first.priority]
          : group === 'module'
            ? [module]
            : group === 'assignee'
              ? assignees.size > 0
                ? [...assignees]
                : [null]
              : [];
    const current = stays.at(-1)!;
    const firstOpen = Math.min(...stays.filter((s) => s.status === 'Open').map((s) => s.enter));
    if (current.status === 'Closed' && inWindow(current.enter)) {
      const seconds = (current.enter - firstOpen) / 1000;
      cycles.push({ seconds, keys });
      for (const k of keys) groupOf(k).cycle.push(seconds);
    }
    if (current.status !== 'Closed') openAges.push((w.asOf - created) / 1000);
    reopened += stays.filter((s) => s.status === 'Closed' && s.leave !== null && inWindow(s.leave)).length;
    for (const s of stays) if (s.status === 'Closed' && inWindow(s.enter)) week(s.enter).closed++;
    if (inWindow(created)) {
      windowed++;
      week(created).opened++;
      for (const k of keys) groupOf(k).count++;
      for (const s of stays) {
        if (s.enter >= end) continue;
        const seconds = (Math.min(s.leave ?? end, end) - s.enter) / 1000;
        spentByStatus[s.status] = (spentByStatus[s.status] ?? 0) + seconds;
        for (const k of keys) {
          const g = groupOf(k);
          g.spent[s.status] = (g.spent[s.status] ?? 0) + seconds;
        }
      }
    }
  }
  const mean = (totals: Record<string, number>, n: number) =>
    Object.fromEntries(bugStatuses.map((s) => [s, n > 0 ? (totals[s] ?? 0) / n : 0]));
  return {
    cycleTime: percentiles(cycles.map((c) => c.seconds)),
    timeInStatus: mean(spentByStatus, windowed),
    reopened,
    weekly: [...weeks.entries()]
      .filter(([, v]) => v.opened > 0 || v.closed > 0)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([k, v]) => ({ week: k, ...v })),
    openAge: percentiles(openAges),
    groups: group
      ? new Map(
          [...groups.entries()]
            .filter(([, g]) => g.count > 0 || g.cycle.length > 0)
            .map(([key, g]) => [
              key,
              { cycleTime: percentiles(g.cycle), count: g.count, timeInStatus: mean(g.spent, g.count) },
            ]),
        )
      : null,
  };
}

/** Equal, numbers within float rounding (sums and means are added up in another order). */
function expectClose(actual: unknown, expected: unknown, path: string) {
  if (typeof expected === 'number' && typeof actual === 'number') {
    expect(Math.abs(actual - expected), `${path}: ${actual} vs ${expected}`).toBeLessThanOrEqual(
      1e-9 * Math.max(1, Math.abs(expected)),
    );
  } else if (expected && typeof expected === 'object') {
    expect(actual !== null && typeof actual === 'object', path).toBe(true);
    const keys = new Set([...Object.keys(expected), ...Object.keys(actual as object)]);
    for (const k of keys) {
      expectClose((actual as Record<string, unknown>)[k], (expected as Record<string, unknown>)[k], `${path}.${k}`);
    }
  } else {
    expect(actual, path).toEqual(expected);
  }
}

describe(`metrics = a naive replay, over ${BUGS.toLocaleString('en')} random bugs`, () => {
  let t: TestSystem;
  let admin: TestUser;
  const seed = Number(process.env.METRICS_SEED ?? Date.now() % 1_000_000);
  const bugs: Bug[] = [];
  const start = Date.now() - 20 * 7 * 24 * HOUR;
  const span = 18 * 7 * 24 * HOUR;

  beforeAll(async () => {
    t = await startTestSystem();
    admin = await registerUser(t.url, 'admin');
    const r = prng(seed);
    const developers = Array.from({ length: 12 }, () => randomUUID());
    const reporter = randomUUID();
    const modules = ['Auth', 'Search', 'Billing', null];
    let last = '';
    const pending: Promise<void>[] = [];
    for (let i = 0; i < BUGS; i++) {
      const id = randomUUID();
      let at = start + r.int(span);
      const events: NewEvent[] = [];
      const facts: Fact[] = [];
      const severity = r.pick(severities);
      const priority = r.pick(priorities);
      const module = r.pick(modules);
      const assignees = r.next() < 0.8 ? [r.pick(developers)] : [];
      events.push(
        ...reportBug(
          {
            bugId: id,
            reporterId: reporter,
            title: `Bug ${i}`,
            description: 'd',
            severity,
            priority,
            module,
            assigneeIds: assignees,
          },
          { at: new Date(at).toISOString() },
        ),
      );
      facts.push({ at, kind: 'report', severity, priority, module, assignees });
      let status: BugStatus = 'Open';
      const moves = r.int(7);
      for (let m = 0; m < moves; m++) {
        at += 1 + r.int(72 * HOUR);
        const opts = { actorId: reporter, at: new Date(at).toISOString() };
        const roll = r.next();
        if (roll < 0.65) {
          const to = r.pick(bugStatuses.filter((s) => s !== status));
          events.push(statusChanged(id, status, to, opts));
          facts.push({ at, kind: 'status', to });
          status = to;
        } else if (roll < 0.75) {
          const to = r.pick(severities);
          events.push(event('BugDetailsEdited', { bugId: id, changes: { severity: to } }, opts));
          facts.push({ at, kind: 'severity', to });
        } else if (roll < 0.82) {
          const to = r.pick(modules);
          events.push(event('BugDetailsEdited', { bugId: id, changes: { module: to } }, opts));
          facts.push({ at, kind: 'module', to });
        } else if (roll < 0.9) {
          const ids = [r.pick(developers)];
          events.push(event('DevelopersAssigned', { bugId: id, developerIds: ids }, opts));
          facts.push({ at, kind: 'assign', ids });
        } else if (roll < 0.97 && assignees.length > 0) {
          events.push(event('DevelopersUnassigned', { bugId: id, developerIds: assignees }, opts));
          facts.push({ at, kind: 'unassign', ids: assignees });
        } else if (roll >= 0.97) {
          events.push(event('BugDeleted', { bugId: id }, opts));
          facts.push({ at, kind: 'delete' });
          break;
        }
      }
      bugs.push({ id, facts });
      pending.push(
        t.system.store.append(`bug-${id}`, events, 'no_stream').then((result) => {
          if (result.position > last) last = result.position;
        }),
      );
      if (pending.length >= 16) await Promise.all(pending.splice(0));
    }
    await Promise.all(pending);
    expect(await t.system.changeFeed.waitFor(last, 120_000)).toBe(true);
    // As autovacuum leaves freshly filled tables a minute later (planned blind before).
    await t.system.pool.query('analyze rm.flow_bugs; analyze rm.bug_intervals');
  }, 600_000);
  afterAll(async () => {
    await t?.close();
  });

  const cases: { name: string; window: () => Window; group: Group | null }[] = [
    { name: 'now, all time', window: () => ({ asOf: Date.now() - 1000, from: null, to: null }), group: null },
    {
      name: 'halfway, a four-week window, by severity',
      window: () => ({ asOf: start + span / 2, from: start + span / 4, to: start + span / 4 + 28 * 24 * HOUR }),
      group: 'severity',
    },
    {
      name: 'three quarters, by assignee',
      window: () => ({ asOf: start + (3 * span) / 4, from: null, to: null }),
      group: 'assignee',
    },
    {
      name: 'now, a window running past asOf, by module',
      window: () => ({ asOf: start + span - 5 * 24 * HOUR, from: start + span / 2, to: start + span }),
      group: 'module',
    },
    {
      name: 'early, by priority',
      window: () => ({ asOf: start + span / 10, from: null, to: null }),
      group: 'priority',
    },
  ];

  it('an analyst’s one query over analytics.bug_cycle_times gives the API’s number', async () => {
    const from = new Date(start + span / 2);
    const to = new Date(start + span / 2 + 30 * 24 * HOUR);
    const query = new URLSearchParams({ from: from.toISOString(), to: to.toISOString(), groupBy: 'severity' });
    const answer = await http(t.url).get(`/api/metrics?${query}`, admin.token);
    expect(answer.status).toBe(200);
    for (const severity of severities) {
      const { rows } = await t.system.pool.query(
        `select percentile_cont(0.5) within group (order by cycle_seconds) as p50, count(*)::int as n
         from analytics.bug_cycle_times where severity = $1 and closed_at >= $2 and closed_at < $3`,
        [severity, from, to],
      );
      const group = answer.body.groups.find((g: { key: string }) => g.key === severity);
      expect(rows[0].n, severity).toBeGreaterThan(0);
      expect(group.cycleTime.count, severity).toBe(rows[0].n);
      expect(group.cycleTime.p50, severity).toBe(rows[0].p50);
    }
  });

  for (const c of cases) {
    it(`${c.name} (seed ${seed})`, async () => {
      const w = c.window();
      const iso = (ms: number) => new Date(Math.floor(ms)).toISOString();
      const ms = { asOf: Math.floor(w.asOf), from: w.from && Math.floor(w.from), to: w.to && Math.floor(w.to) };
      const query = new URLSearchParams({ asOf: iso(ms.asOf) });
      if (ms.from !== null) query.set('from', iso(ms.from));
      if (ms.to !== null) query.set('to', iso(ms.to));
      if (c.group) query.set('groupBy', c.group);
      const answer = await http(t.url).get(`/api/metrics?${query}`, admin.token);
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      const expected = oracle(bugs, ms, c.group);
      const { groups, ...rest } = expected;
      expectClose(
        {
          cycleTime: answer.body.cycleTime,
          timeInStatus: answer.body.timeInStatus,
          reopened: answer.body.reopened,
          weekly: answer.body.weekly,
          openAge: answer.body.openAge,
        },
        rest,
        'metrics',
      );
      expect(expected.cycleTime.count).toBeGreaterThan(0);
      if (groups) {
        const actual = new Map(
          (answer.body.groups as { key: string | null }[]).map(({ key, ...g }) => [key, g] as const),
        );
        expect([...actual.keys()].sort(), 'group keys').toEqual([...groups.keys()].sort());
        for (const [key, g] of groups) expectClose(actual.get(key), g, `groups[${key}]`);
      }
    });
  }
});
