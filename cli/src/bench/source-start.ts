/**
 * `bugtrail start` from the sources (no build), for benches run before a build:
 * `node testing/src/run-ts.mjs cli/src/bench/source-start.ts`. Whatever arguments it was
 * given, main.ts runs `start`.
 */
process.argv.splice(2, process.argv.length - 2, 'start');
await import('../main.js');
