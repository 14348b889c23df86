import { writeFile } from 'node:fs/promises';
import { type Config, createDb, createLogger, createPool } from '@bugtrail/platform';
import {
  analystConnectionString,
  analyticsDictionary,
  type ReadModelDb,
  resetAnalystPassword,
} from '@bugtrail/projector';
import type { Kysely } from 'kysely';
import { openDatabase, runningEmbeddedUrl } from './embedded-db.js';
import { createSystem } from './system.js';

type Out = (line: string) => void;
type Product = { url: string; embedded: boolean; running: boolean };

/**
 * The product's database, migrated and with its analytics views: the embedded one another
 * Bugtrail runs on DATA_DIR right now (never a second server on the same folder), else
 * DATABASE_URL or the embedded one started for as long as `work` takes.
 */
async function withProductDatabase<T>(
  config: Config,
  work: (db: Kysely<ReadModelDb>, product: Product) => Promise<T>,
): Promise<T> {
  const logger = createLogger(config.logLevel === 'info' ? 'warn' : config.logLevel);
  const running = config.databaseUrl ? undefined : await runningEmbeddedUrl(config.dataDir);
  if (running) {
    // That Bugtrail's migrations made the role and its start installed the views.
    const pool = createPool(running, { max: 1, logger });
    try {
      return await work(createDb<ReadModelDb>(pool), { url: running, embedded: true, running: true });
    } finally {
      await pool.end();
    }
  }
  const database = await openDatabase(config.databaseUrl, config.dataDir, logger);
  try {
    const system = await createSystem({ config, databaseUrl: database.url, logger, parts: [] });
    try {
      return await work(system.db, { url: database.url, embedded: database.embedded, running: false });
    } finally {
      await system.close();
    }
  } finally {
    await database.stop();
  }
}

/**
 * `bugtrail analyst-url`: a connection string for the analyst role (SELECT on `analytics`
 * only) with a password set now. The URL alone goes to stdout; notes go to stderr.
 */
export async function analystUrlCommand(config: Config, out: Out, note: Out): Promise<number> {
  const { url, product } = await withProductDatabase(config, async (db, product) => ({
    url: analystConnectionString(product.url, await resetAnalystPassword(db)),
    product,
  }));
  out(url);
  if (product.embedded) {
    note(
      'The embedded database listens only on 127.0.0.1: connect from this machine (or through an SSH tunnel).' +
        (product.running ? '' : ' It runs while Bugtrail runs (npm start); the string works then.'),
    );
  }
  note('Each run sets a new password: strings printed earlier stop working. What is there: docs/analytics.md.');
  return 0;
}

/** `bugtrail analytics-docs [--out FILE]`: writes the data dictionary from the database's comments. */
export async function analyticsDocsCommand(config: Config, file: string, note: Out): Promise<number> {
  const text = await withProductDatabase(config, (db) => analyticsDictionary(db));
  await writeFile(file, text);
  note(`written: ${file}`);
  return 0;
}
