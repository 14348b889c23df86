import type { BenchUser } from './server-process.js';
import { round } from './stats.js';

/** The people of a loaded store: bugs are reported by the testers and assigned to the developers. */
export type BenchTeam = { admin: BenchUser; testers: BenchUser[]; developers: BenchUser[] };

/** One line of the bench table. */
export type BenchRow = {
  suite: string;
  name: string;
  value: number;
  unit: string;
  /** The goal from the brief, as text (e.g. "≥ 2,500/s"). */
  target?: string;
  /** Whether the goal is met (omitted when there is no goal). */
  met?: boolean;
  /** A baseline measured in the same run, and our value divided by it. */
  baseline?: { name: string; value: number; unit: string };
  ratio?: number;
  note?: string;
};

export type BenchContext = {
  /** A PostgreSQL server URL (admin) in which suites create their own databases. */
  adminDatabaseUrl: string;
  /**
   * A fresh database; `{ filled: true }`: one holding the run's preloaded store
   * (`--store N`: N bugs, ≈ 3.7 events each, read models caught up), else empty.
   */
  createDatabase(options?: { filled?: boolean }): Promise<{ url: string; drop(): Promise<void> }>;
  /** The preloaded store (`--store N`), once made: its size, the team that reported, how long the read models took. */
  store: { bugs: number; events: number | null; team: BenchTeam | null; catchUpSeconds: number | null } | null;
  /** Smaller sizes for a quick run (`npm run bench -- --quick`). */
  quick: boolean;
  log(message: string): void;
};

export type BenchSuite = { name: string; run(ctx: BenchContext): Promise<BenchRow[]> };

/** " (store of N events)" after a row's name when the run preloads a store. */
export function storeLabel(ctx: BenchContext): string {
  if (!ctx.store) return '';
  const events = ctx.store.events;
  return events === null
    ? ` (store of ${ctx.store.bugs.toLocaleString('en-US')} bugs)`
    : ` (store of ${events.toLocaleString('en-US')} events)`;
}

/** A rebuild's row: events/s beside a plain `readAll` of the same events, against the 30k/s target. */
export function rebuildRow(
  suite: string,
  name: string,
  rebuilt: { events: number; ms: number },
  readRate: number,
  note: string,
): BenchRow {
  const rate = rebuilt.events / (rebuilt.ms / 1000);
  return {
    suite,
    name,
    value: round(rate, 0),
    unit: 'events/s',
    baseline: { name: 'readAll of the same events', value: round(readRate, 0), unit: 'events/s' },
    ratio: round(rate / readRate, 2),
    target: '≥ 30,000/s',
    met: rate >= 30_000,
    note,
  };
}
