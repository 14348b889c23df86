/**
 * A projector process for projector.int.spec.ts to kill with SIGKILL. It runs the
 * real Projector over the counting projection and gets stuck (on an advisory lock
 * the test holds) in the middle of batch BLOCK_ON_BATCH, after writing its rows.
 *
 * Run with: node testing/src/run-ts.mjs projector/src/runtime/projector-child.fixture.ts
 */
import { silentLogger } from '@bugtrail/platform';
import { countingProjection, openProjectorDatabase } from './counting-projection.fixture.js';
import { Projector } from './projector.js';

const url = process.env.DATABASE_URL;
if (!url) throw new Error('DATABASE_URL is required');
const blockOnBatch = Number(process.env.BLOCK_ON_BATCH);
const lockKey = Number(process.env.BLOCK_LOCK_KEY);
const batchSize = Number(process.env.BATCH_SIZE);

const { store, pool, db } = await openProjectorDatabase(url);
const projector = new Projector(
  store,
  pool,
  db,
  [
    countingProjection({
      blockOnBatch: { batch: blockOnBatch, lockKey, onBlocked: () => process.stdout.write('blocked\n') },
    }),
  ],
  { logger: silentLogger, batchSize },
);
await projector.prepare();
projector.start();
process.stdout.write('started\n');
