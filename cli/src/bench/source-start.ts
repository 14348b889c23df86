/**
 * `bugtrail start` from the sources (no build), for benches run before a build:
 * `node testing/src/run-ts.mjs cli/src/bench/source-start.ts`. run-ts leaves this
 * file's path in argv, where main.ts expects the command.
 */
process.argv.splice(2, process.argv.length - 2, 'start');
await import('../main.js');
