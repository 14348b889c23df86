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
  createDatabase(): Promise<{ url: string; drop(): Promise<void> }>;
  /** Smaller sizes for a quick run (`npm run bench -- --quick`). */
  quick: boolean;
  log(message: string): void;
};

export type BenchSuite = { name: string; run(ctx: BenchContext): Promise<BenchRow[]> };
