#!/usr/bin/env node
/**
 * The `bugtrail` command: start (all parts in one process, or --only one of them),
 * rebuild a projection, print a stream's history, verify the store, hand analysts a
 * connection string and write their data dictionary, seed demo data, import bugs from
 * Redmine, Jira or GitHub (through a server's API), run the bench.
 *
 * The command line is checked first, before the app's modules load (issue 40): `--help` and a
 * mistyped flag answer at once and touch no database and no DATA_DIR.
 */
import { parseCommandLine } from './command-line.js';

const line = parseCommandLine(process.argv.slice(2));
if (line.kind === 'help') {
  process.stdout.write(`${line.text}\n`);
  process.exit(0);
}
if (line.kind === 'error') {
  process.stderr.write(`bugtrail: ${line.message}\n`);
  process.exit(2);
}
const { runCommand, describeFailure } = await import('./commands.js');
try {
  await runCommand(line.command, line.args);
} catch (error) {
  process.stderr.write(`${describeFailure(error)}\n`);
  process.exit(1);
}
