import { randomUUID } from 'node:crypto';
import type { TriageSuggestions } from '@bugtrail/domain';
import { type Position, PostgresEventStore } from '@bugtrail/eventstore';
import { createPool, readModelPosition } from '@bugtrail/platform';
import type pg from 'pg';
import { reportBug, statusChanged } from '../demo/bug-events.js';
import { type BenchUser, benchCall, registerBenchUser, startServerProcess } from './server-process.js';
import { percentile, round, runConcurrent } from './stats.js';
import { backgroundReports, type CorpusReport, DEFECT_COUNT, labelledSet } from './triage-corpus.js';
import type { BenchContext, BenchRow, BenchSuite } from './types.js';

/**
 * Triage suggestions (issue 14, ADR 019): their quality on a synthetic labelled set of 300
 * reports (triage-corpus.ts; duplicates precision@3, severity and priority accuracy,
 * assignee hit@3, each beside a naive baseline from the same run), and their latency at
 * 100k bugs (p95, beside the same call at the labelled set's 300), as an admin (one
 * search) and as a tester (two: the team's and their own).
 */

const SUITE = 'triage';

type Loaded = { ids: string[]; last: Position; events: number };

/** Appends reports as write-api would: each assigned to its fixer; `closed(i)` ones closed by them. */
async function appendReports(
  store: PostgresEventStore,
  reports: readonly CorpusReport[],
  reporters: readonly BenchUser[],
  developers: readonly BenchUser[],
  closed: (i: number) => 'Open' | 'In Progress' | 'Closed',
  log: (m: string) => void,
): Promise<Loaded> {
  const ids: string[] = new Array(reports.length);
  let last: Position = '';
  let events = 0;
  const base = Date.UTC(2025, 0, 1);
  await runConcurrent(reports.length, 16, async (i) => {
    const r = reports[i]!;
    const bugId = randomUUID();
    ids[i] = bugId;
    const fixer = developers[r.fixer % developers.length]!;
    const reporter = reporters[i % reporters.length]!;
    const at = new Date(base + i * 1000).toISOString();
    const batch = reportBug(
      {
        bugId,
        number: i + 1,
        reporterId: reporter.id,
        title: r.title,
        description: r.description,
        severity: r.severity,
        priority: r.priority,
        assigneeIds: [fixer.id],
      },
      { at },
    );
    const status = closed(i);
    if (status !== 'Open') batch.push(statusChanged(bugId, 'Open', status, { actorId: fixer.id, at }));
    const result = await store.append(`bug-${bugId}`, batch, 'no_stream');
    events += batch.length;
    if (result.position > last) last = result.position;
    if (i > 0 && i % 20_000 === 0) log(`appended ${i} reports`);
  });
  return { ids, last, events };
}

async function waitForProjector(pool: pg.Pool, position: Position) {
  const started = performance.now();
  while ((await readModelPosition(pool)) < position) {
    if (performance.now() - started > 30 * 60_000) throw new Error('projector did not catch up in 30 minutes');
    await new Promise((r) => setTimeout(r, 250));
  }
  return (performance.now() - started) / 1000;
}

const suggest = (base: string, token: string, r: Pick<CorpusReport, 'title' | 'description'>) =>
  benchCall(`${base}/api/bugs/suggestions`, {
    token,
    body: { title: r.title, description: r.description },
  }) as Promise<TriageSuggestions>;

async function latency(base: string, token: string, queries: readonly CorpusReport[], n: number) {
  await runConcurrent(Math.min(50, n), 1, (i) => suggest(base, token, queries[i % queries.length]!).then(() => {}));
  const run = await runConcurrent(n, 1, (i) =>
    suggest(base, token, queries[(i + 50) % queries.length]!).then(() => {}),
  );
  return { p95: percentile(run.latencies, 95), p50: percentile(run.latencies, 50) };
}

type Quality = {
  precisionAt3: number;
  searchPrecisionAt3: number;
  severity: { accuracy: number; answered: number; baseline: number };
  priority: { accuracy: number; answered: number; baseline: number };
  assigneeHitAt3: number;
  busiestHitAt3: number;
  p95: number;
};

/** The labelled set: 225 closed reports as history, 75 new ones asked about (as an admin, who sees all). */
async function measureQuality(ctx: BenchContext, root: string): Promise<Quality> {
  const set = labelledSet();
  const database = await ctx.createDatabase();
  const server = await startServerProcess(root, database.url);
  const pool = createPool(database.url, { max: 20 });
  try {
    const admin = await registerBenchUser(server.url, 'admin', 0);
    const testers = [
      await registerBenchUser(server.url, 'tester', 0),
      await registerBenchUser(server.url, 'tester', 1),
    ];
    const developers: BenchUser[] = [];
    for (let i = 0; i < 10; i++) developers.push(await registerBenchUser(server.url, 'developer', i));
    const { ids, last } = await appendReports(
      new PostgresEventStore(pool),
      set.history,
      testers,
      developers,
      () => 'Closed',
      ctx.log,
    );
    await waitForProjector(pool, last);

    const groupIds = new Map<string, Set<string>>();
    set.history.forEach((r, i) => {
      const group = groupIds.get(r.defect.key) ?? new Set<string>();
      group.add(ids[i]!);
      groupIds.set(r.defect.key, group);
    });
    const mostCommon = <T extends string>(values: T[]) => {
      const counts = new Map<T, number>();
      for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
      return [...counts].sort((a, b) => b[1] - a[1])[0]![0];
    };
    const commonSeverity = mostCommon(set.history.map((r) => r.severity));
    const commonPriority = mostCommon(set.history.map((r) => r.priority));
    const closedBy = new Map<number, number>();
    for (const r of set.history) closedBy.set(r.fixer, (closedBy.get(r.fixer) ?? 0) + 1);
    const busiest = [...closedBy]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 3)
      .map(([dev]) => developers[dev]!.id);

    let relevant = 0;
    let searchRelevant = 0;
    let severityRight = 0;
    let severityAnswered = 0;
    let priorityRight = 0;
    let priorityAnswered = 0;
    let assigneeHits = 0;
    let busiestHits = 0;
    for (const q of set.queries) {
      const group = groupIds.get(q.defect.key)!;
      const answer = await suggest(server.url, admin.token, q);
      relevant += answer.duplicates.slice(0, 3).filter((d) => group.has(d._id)).length;
      // Baseline: the list's search box with the same title (websearch, every word must match).
      const search = (await benchCall(`${server.url}/api/bugs?limit=3&q=${encodeURIComponent(q.title)}`, {
        token: admin.token,
      })) as { bugs: { _id: string }[] };
      searchRelevant += search.bugs.slice(0, 3).filter((b) => group.has(b._id)).length;
      if (answer.severity) severityAnswered++;
      if (answer.severity?.value === q.defect.severity) severityRight++;
      if (answer.priority) priorityAnswered++;
      if (answer.priority?.value === q.defect.priority) priorityRight++;
      const fixer = developers[q.fixer]!.id;
      if (answer.assignees.slice(0, 3).some((a) => a._id === fixer)) assigneeHits++;
      if (busiest.includes(fixer)) busiestHits++;
    }
    const n = set.queries.length;
    const speed = await latency(server.url, admin.token, set.queries, ctx.quick ? 100 : 300);
    return {
      precisionAt3: relevant / (3 * n),
      searchPrecisionAt3: searchRelevant / (3 * n),
      severity: {
        accuracy: severityRight / n,
        answered: severityAnswered / n,
        baseline: set.queries.filter((q) => q.defect.severity === commonSeverity).length / n,
      },
      priority: {
        accuracy: priorityRight / n,
        answered: priorityAnswered / n,
        baseline: set.queries.filter((q) => q.defect.priority === commonPriority).length / n,
      },
      assigneeHitAt3: assigneeHits / n,
      busiestHitAt3: busiestHits / n,
      p95: speed.p95,
    };
  } finally {
    await server.stop();
    await pool.end();
    await database.drop();
  }
}

export function triageSuite(root: string): BenchSuite {
  return {
    name: SUITE,
    async run(ctx: BenchContext): Promise<BenchRow[]> {
      const rows: BenchRow[] = [];
      const quality = await measureQuality(ctx, root);
      const pct = (x: number) => round(x * 100, 1);
      const labelled = 'synthetic labelled set, 300 reports (README)';
      rows.push(
        {
          suite: SUITE,
          name: `duplicates precision@3, ${labelled}`,
          value: pct(quality.precisionAt3),
          unit: '%',
          baseline: { name: 'list search ?q=title, top 3', value: pct(quality.searchPrecisionAt3), unit: '%' },
          ...(quality.searchPrecisionAt3 > 0
            ? { ratio: round(quality.precisionAt3 / quality.searchPrecisionAt3, 2) }
            : {}),
          note: 'each question has 3 true duplicates among 225 closed reports',
        },
        {
          suite: SUITE,
          name: 'severity accuracy (null counts as wrong)',
          value: pct(quality.severity.accuracy),
          unit: '%',
          baseline: { name: 'always the commonest', value: pct(quality.severity.baseline), unit: '%' },
          ratio: round(quality.severity.accuracy / quality.severity.baseline, 2),
          note: `answered for ${pct(quality.severity.answered)}% of questions`,
        },
        {
          suite: SUITE,
          name: 'priority accuracy (null counts as wrong)',
          value: pct(quality.priority.accuracy),
          unit: '%',
          baseline: { name: 'always the commonest', value: pct(quality.priority.baseline), unit: '%' },
          ratio: round(quality.priority.accuracy / quality.priority.baseline, 2),
          note: `answered for ${pct(quality.priority.answered)}% of questions`,
        },
        {
          suite: SUITE,
          name: 'assignee hit@3',
          value: pct(quality.assigneeHitAt3),
          unit: '%',
          baseline: { name: 'the 3 who closed most', value: pct(quality.busiestHitAt3), unit: '%' },
          ratio: round(quality.assigneeHitAt3 / quality.busiestHitAt3, 2),
          note: '10 developers; the labelled fixer is the area owner 80% of the time',
        },
      );
      ctx.log(
        `quality: P@3 ${pct(quality.precisionAt3)}%, severity ${pct(quality.severity.accuracy)}%, assignee hit@3 ${pct(quality.assigneeHitAt3)}%`,
      );

      const large = Number(process.env.BENCH_BUGS ?? (ctx.quick ? 10_000 : 100_000));
      const database = await ctx.createDatabase();
      const server = await startServerProcess(root, database.url);
      const pool = createPool(database.url, { max: 20 });
      try {
        const admin = await registerBenchUser(server.url, 'admin', 0);
        const testers: BenchUser[] = [];
        for (let i = 0; i < 20; i++) testers.push(await registerBenchUser(server.url, 'tester', i));
        const developers: BenchUser[] = [];
        for (let i = 0; i < 50; i++) developers.push(await registerBenchUser(server.url, 'developer', i));
        const statuses = ['Open', 'In Progress', 'Closed'] as const;
        const background = backgroundReports(large);
        const loaded = await appendReports(
          new PostgresEventStore(pool),
          background,
          testers,
          developers,
          (i) => statuses[i % 3]!,
          ctx.log,
        );
        const behind = await waitForProjector(pool, loaded.last);
        // What autovacuum does within minutes of such a load (the word statistics the search
        // relies on, the visibility map): measured in that steady state, not while it runs.
        await pool.query('vacuum (analyze) rm.bugs');
        await pool.query('vacuum (analyze) eventstore.events');
        ctx.log(`${large} reports (${loaded.events} events) projected ${round(behind, 1)} s after the last append`);
        const questions = backgroundReports(400, 1401);
        const requests = ctx.quick ? 200 : 1000;
        const floor = await runConcurrent(requests, 1, () => benchCall(`${server.url}/health`).then(() => {}));
        const size = large.toLocaleString('en-US');
        for (const [who, token] of [
          ['admin', admin.token],
          ['tester', testers[0]!.token],
        ] as const) {
          const speed = await latency(server.url, token, questions, requests);
          rows.push({
            suite: SUITE,
            name: `POST /api/bugs/suggestions at ${size} bugs, ${who}, 1 conn`,
            value: round(speed.p95, 2),
            unit: 'ms p95',
            baseline: {
              name: 'same (admin) at the 300 of the labelled set',
              value: round(quality.p95, 2),
              unit: 'ms p95',
            },
            ratio: round(speed.p95 / quality.p95, 2),
            target: '≤ 50 ms',
            met: speed.p95 <= 50,
            note: `p50 ${round(speed.p50, 2)} ms; GET /health p95 ${round(percentile(floor.latencies, 95), 2)} ms`,
          });
          ctx.log(`suggestions (${who}) at ${size}: p95 ${round(speed.p95, 2)} ms`);
        }
        // Duplicates at size: every report of the question's defect among the 100k is a true one.
        const defectOf = new Map<string, string>();
        const reportsOf = new Map<string, number>();
        background.forEach((r, i) => {
          defectOf.set(loaded.ids[i]!, r.defect.key);
          reportsOf.set(r.defect.key, (reportsOf.get(r.defect.key) ?? 0) + 1);
        });
        let relevant = 0;
        let possible = 0;
        const asked = questions.slice(0, ctx.quick ? 50 : 200);
        for (const q of asked) {
          const answer = await suggest(server.url, admin.token, q);
          relevant += answer.duplicates.slice(0, 3).filter((d) => defectOf.get(d._id) === q.defect.key).length;
          possible += Math.min(3, reportsOf.get(q.defect.key) ?? 0);
        }
        rows.push({
          suite: SUITE,
          name: `duplicates precision@3 at ${size} bugs (same generator, ${asked.length} questions)`,
          value: round((relevant / (3 * asked.length)) * 100, 1),
          unit: '%',
          baseline: {
            name: 'the most possible (true duplicates there)',
            value: round((possible / (3 * asked.length)) * 100, 1),
            unit: '%',
          },
          ...(possible > 0 ? { ratio: round(relevant / possible, 2) } : {}),
          note: `${round(large / DEFECT_COUNT, 1)} reports per defect on average`,
        });
      } finally {
        await server.stop();
        await pool.end();
        await database.drop();
      }
      return rows;
    },
  };
}
