/**
 * Runs a TypeScript entry file in a plain `node` child process, loading the
 * workspace packages from their sources exactly as vitest does (the "source"
 * export condition, see vitest.config.ts). Tests that must kill a process with
 * SIGKILL need a real child process; Node 20 cannot strip types itself, no
 * tsx/vite-node is installed, and the built dist may be stale — vite's own
 * module runner (a dependency of vitest) is what is left, and it is what vitest uses.
 *
 *   node testing/src/run-ts.mjs <entry.ts> [args...]
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createServer, createServerModuleRunner, defaultServerConditions } from 'vite';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const entry = process.argv[2];
if (!entry) {
  process.stderr.write('usage: node testing/src/run-ts.mjs <entry.ts> [args...]\n');
  process.exit(2);
}
const conditions = ['source', ...defaultServerConditions];
const server = await createServer({
  root,
  configFile: false,
  logLevel: 'error',
  appType: 'custom',
  server: { middlewareMode: true, hmr: false, ws: false, watch: null },
  resolve: { conditions },
  ssr: { resolve: { conditions, externalConditions: conditions } },
  optimizeDeps: { noDiscovery: true, include: [] },
});
const runner = createServerModuleRunner(server.environments.ssr, { hmr: false });
// The entry sees the argv a plain `node entry.ts args...` gives it: this launcher's own path goes.
process.argv.splice(1, 1);
await runner.import(path.resolve(entry));
