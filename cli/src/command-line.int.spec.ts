import { execFile } from 'node:child_process';
import { chmod, mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commands } from './command-line.js';

/**
 * Issue 40: `bugtrail seed --help` wrote demo data into ./.data. Every command, run as a user
 * runs it (`node cli/dist/main.js`, no DATABASE_URL, an empty DATA_DIR and an empty working
 * folder), answers `--help` with its usage and exit 0, and refuses an unknown flag with exit 2
 * and a message; neither creates anything in DATA_DIR or the working folder. Build first
 * (`npm run build`, as `npm test` does): the built CLI is what people run.
 */
const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const main = path.join(repoRoot, 'cli', 'dist', 'main.js');

type Outcome = { code: number; stdout: string; stderr: string };

describe('every CLI command answers --help and refuses unknown flags, touching nothing', () => {
  let dataDir: string;
  let workDir: string;

  const cli = (args: string[]) =>
    new Promise<Outcome>((resolve) => {
      execFile(
        process.execPath,
        [main, ...args],
        {
          cwd: workDir,
          // No DATABASE_URL: a command that ran would start the embedded database in DATA_DIR.
          env: { PATH: process.env.PATH ?? '', HOME: workDir, DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
          timeout: 120_000,
        },
        (error, stdout, stderr) => {
          const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0;
          resolve({ code, stdout, stderr });
        },
      );
    });

  /** Runs the cases two at a time, each in its own process. */
  async function each<T>(items: readonly T[], fn: (item: T) => Promise<void>) {
    const queue = [...items];
    await Promise.all(
      [1, 2].map(async () => {
        for (let item = queue.shift(); item !== undefined; item = queue.shift()) await fn(item);
      }),
    );
  }

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'bugtrail-cli-data-'));
    // One the embedded database could use: a command that ran would leave its cluster here.
    await chmod(dataDir, 0o755);
    workDir = await mkdtemp(path.join(os.tmpdir(), 'bugtrail-cli-cwd-'));
  });
  afterAll(async () => {
    await rm(dataDir, { recursive: true, force: true });
    await rm(workDir, { recursive: true, force: true });
  });

  const names = Object.keys(commands);

  it('knows every command main.ts runs', () => {
    expect(names).toEqual([
      'start',
      'rebuild',
      'history',
      'verify',
      'analyst-url',
      'analytics-docs',
      'seed',
      'import',
      'bench',
    ]);
  });

  it('answers --help (and -h) with the usage, exit 0', async () => {
    const cases = [
      ...names.map((name) => [name, '--help']),
      ['seed', '-h'],
      ['import', 'issues.csv', '--from', 'jira', '--help'],
      ['--help'],
      ['help', 'seed'],
    ];
    await each(cases, async (args) => {
      const answer = await cli(args);
      expect(answer, args.join(' ')).toMatchObject({ code: 0, stderr: '' });
      const named = args.find((a) => names.includes(a));
      expect(answer.stdout, args.join(' ')).toContain(named ? `usage: bugtrail ${named}` : 'commands:');
    });
    expect(await readdir(dataDir)).toEqual([]);
    expect(await readdir(workDir)).toEqual([]);
  }, 300_000);

  it('refuses an unknown flag, a stray argument and an unknown command with exit 2 and a message', async () => {
    const cases = [
      ...names.map((name) => [name, '--no-such-flag']),
      ['seed', '--count=5'],
      ['verify', 'extra'],
      ['start', '--only'],
      ['reseed'],
    ];
    await each(cases, async (args) => {
      const answer = await cli(args);
      expect(answer.code, `${args.join(' ')}: ${answer.stderr}`).toBe(2);
      expect(answer.stdout, args.join(' ')).toBe('');
      expect(answer.stderr, args.join(' ')).toMatch(/^bugtrail: .*(no-such-flag|count|extra|--only|reseed)/);
      expect(answer.stderr, args.join(' ')).toContain('usage:');
    });
    expect(await readdir(dataDir)).toEqual([]);
    expect(await readdir(workDir)).toEqual([]);
  }, 300_000);
});
