/**
 * A projector process (the projector and the reactors beside it, the automation reactor among
 * them) for automation-process.int.spec.ts to kill with SIGKILL.
 *
 * Run with: node testing/src/run-ts.mjs cli/src/automation-child.fixture.ts
 */
import { loadConfig, silentLogger } from '@bugtrail/platform';
import { createSystem } from './system.js';

const url = process.env.DATABASE_URL;
if (!url) throw new Error('DATABASE_URL is required');
await createSystem({
  config: { ...loadConfig({}), logLevel: 'silent' },
  databaseUrl: url,
  logger: silentLogger,
  parts: ['projector'],
});
process.stdout.write('started\n');
