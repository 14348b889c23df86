import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { startThrowawayCluster } from '../embedded-db.js';
import { analyticsSuite } from './analytics.js';
import { auditSuite } from './audit.js';
import { automationsSuite } from './automations.js';
import { boardSuite } from './board.js';
import { bugsReadSuite, fillStore } from './bugs.js';
import { bundleSuite } from './bundle.js';
import { eventStoreSuite } from './eventstore.js';
import { fanoutSuite } from './fanout.js';
import { fieldsSuite } from './fields.js';
import { httpSuite } from './http.js';
import { importSuite } from './import.js';
import { latencySuite } from './latency.js';
import { triageSuite } from './triage.js';
import type { BenchContext, BenchRow, BenchSuite } from './types.js';
import { webhooksSuite } from './webhooks.js';

const suites = (root: string): BenchSuite[] => [
  eventStoreSuite,
  latencySuite,
  httpSuite(root),
  bugsReadSuite(root),
  fanoutSuite,
  auditSuite(root),
  analyticsSuite(root),
  triageSuite(root),
  webhooksSuite,
  automationsSuite,
  importSuite(root),
  boardSuite(root),
  fieldsSuite(root),
  bundleSuite(root),
];

function formatNumber(n: number): string {
  return Number.isFinite(n) ? n.toLocaleString('en-US', { maximumFractionDigits: 2 }) : String(n);
}

export function renderTable(rows: readonly BenchRow[]): string {
  const header = ['suite', 'measure', 'value', 'baseline (same run)', 'ratio', 'target', 'met', 'note'];
  const lines = rows.map((r) => [
    r.suite,
    r.name,
    `${formatNumber(r.value)} ${r.unit}`,
    r.baseline ? `${formatNumber(r.baseline.value)} ${r.baseline.unit} (${r.baseline.name})` : '',
    r.ratio === undefined ? '' : `${formatNumber(r.ratio)}×`,
    r.target ?? '',
    r.met === undefined ? '' : r.met ? 'yes' : 'NO',
    r.note ?? '',
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i]!.length)));
  const fmt = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
  return [fmt(header), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...lines.map(fmt)].join('\n');
}

/**
 * `npm run bench [-- --quick] [--only suite,suite] [--store N]`: a table, and bench/results/latest.json.
 * `--store N` runs the write, latency and fan-out suites over a store preloaded with N bugs
 * (272000 ≈ 1M events) instead of an empty one.
 */
export async function runBench(root: string, args: string[]): Promise<void> {
  const quick = args.includes('--quick');
  const onlyIndex = args.indexOf('--only');
  const onlyArg =
    args.find((a) => a.startsWith('--only='))?.slice('--only='.length) ??
    (onlyIndex >= 0 ? args[onlyIndex + 1] : undefined);
  const only = onlyArg ? new Set(onlyArg.split(',')) : null;
  let adminUrl = process.env.DATABASE_URL;
  let stopCluster: (() => Promise<void>) | null = null;
  if (!adminUrl) {
    // fsync stays on here: the bench measures durable appends.
    const cluster = await startThrowawayCluster({
      prefix: 'bugtrail-bench-',
      flags: ['-c', 'max_connections=400', '-c', 'shared_buffers=256MB'],
    });
    adminUrl = cluster.url;
    stopCluster = () => cluster.stop();
  }
  const storeIndex = args.indexOf('--store');
  const storeArg =
    args.find((a) => a.startsWith('--store='))?.slice('--store='.length) ??
    (storeIndex >= 0 ? args[storeIndex + 1] : undefined);
  const storeBugs = storeArg ? Number(storeArg) : 0;
  if (!Number.isInteger(storeBugs) || storeBugs < 0) throw new Error('--store takes a number of bugs');
  /** The preloaded store, made once per run and copied for every suite that asks (`create database … template`). */
  let template: Promise<string> | null = null;
  const createDatabase = async (source?: string) => {
    const name = `bench_${randomBytes(5).toString('hex')}`;
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`create database ${name}${source ? ` template ${source}` : ''}`);
    await admin.end();
    const url = new URL(adminUrl!);
    url.pathname = `/${name}`;
    return { name, url: url.toString() };
  };
  const ctx: BenchContext = {
    adminDatabaseUrl: adminUrl,
    quick,
    store: storeBugs > 0 ? { bugs: storeBugs, events: null, team: null, catchUpSeconds: null } : null,
    log: (message) => process.stderr.write(`  … ${message}\n`),
    async createDatabase(options = {}) {
      let source: string | undefined;
      if (options.filled && storeBugs > 0) {
        template ??= (async () => {
          const made = await createDatabase();
          ctx.store = { bugs: storeBugs, ...(await fillStore(root, made.url, storeBugs, ctx.log)) };
          return made.name;
        })();
        source = await template;
      }
      const { name, url } = await createDatabase(source);
      return {
        url,
        async drop() {
          const c = new pg.Client({ connectionString: adminUrl });
          await c.connect();
          await c.query(`drop database if exists ${name} with (force)`).catch(() => {});
          await c.end();
        },
      };
    },
  };
  const rows: BenchRow[] = [];
  const started = new Date();
  try {
    for (const suite of suites(root)) {
      if (only && !only.has(suite.name)) continue;
      process.stderr.write(`bench: ${suite.name}\n`);
      try {
        rows.push(...(await suite.run(ctx)));
      } catch (error) {
        process.stderr.write(`bench: ${suite.name} failed: ${(error as Error).stack}\n`);
        rows.push({ suite: suite.name, name: 'FAILED', value: Number.NaN, unit: '', note: (error as Error).message });
      }
    }
  } finally {
    const made = template as Promise<string> | null;
    if (made) {
      const name = await made.catch(() => null);
      const admin = new pg.Client({ connectionString: adminUrl });
      await admin.connect();
      if (name) await admin.query(`drop database if exists ${name} with (force)`).catch(() => {});
      await admin.end();
    }
    await stopCluster?.();
  }
  process.stdout.write(`\n${renderTable(rows)}\n`);
  const out = path.join(root, 'bench', 'results');
  await mkdir(out, { recursive: true });
  await writeFile(
    path.join(out, 'latest.json'),
    `${JSON.stringify({ startedAt: started.toISOString(), machine: { cpus: os.cpus().length, node: process.version }, quick, store: ctx.store, rows }, null, 2)}\n`,
  );
  process.stdout.write(`\nwritten: bench/results/latest.json\n`);
}
