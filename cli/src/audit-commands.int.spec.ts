import { execFile } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { http, registerUser, type TestUser } from '@bugtrail/testing';
import { startTestSystem, type TestSystem } from '@bugtrail/testing/system';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { historyCommand, verifyCommand } from './audit-commands.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const run = promisify(execFile);

/** `bugtrail history bug` and `bugtrail verify` on a real store, in-process and as the CLI process. */
describe('audit commands', () => {
  let t: TestSystem;
  let admin: TestUser;
  let bugId: string;

  const collect = () => {
    const lines: string[] = [];
    return { lines, out: (line: string) => lines.push(line) };
  };

  beforeAll(async () => {
    t = await startTestSystem();
    admin = await registerUser(t.url, 'admin');
    const developer = await registerUser(t.url, 'developer', 'Dana Dev');
    const answer = await http(t.url).post(
      '/api/bugs',
      {
        title: 'Export drops the last row',
        description: 'The xlsx export loses its final row',
        priority: 'High',
        severity: 'Major',
        assignedTo: [developer.id],
      },
      admin.token,
    );
    bugId = answer.body.bug._id;
    await http(t.url).put(`/api/bugs/${bugId}/status`, { status: 'In Progress' }, developer.token);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('history bug --json prints what GET /api/bugs/{id}/history answers', async () => {
    const { lines, out } = collect();
    expect(await historyCommand(t.system, ['bug', bugId, '--json'], out)).toBe(0);
    const answer = await http(t.url).get(`/api/bugs/${bugId}/history`, admin.token);
    expect(JSON.parse(lines.join('\n'))).toEqual(answer.body);
  });

  it('history bug prints the story in words, and --at the bug as it was', async () => {
    const story = collect();
    expect(await historyCommand(t.system, ['bug', bugId], story.out)).toBe(0);
    const moved = story.lines.find((l) => l.includes('status: Open → In Progress'));
    expect(moved, story.lines.join('\n')).toContain('Dana Dev');
    expect(story.lines.at(-1)).toMatch(/^History intact: \d+ events, chain verified$/);
    const events = await t.system.store.readStream(`bug-${bugId}`);
    const then = collect();
    await historyCommand(t.system, ['bug', bugId, '--at', events[0]!.metadata.occurredAt], then.out);
    expect(then.lines.join('\n')).toContain('status Open');
  });

  it('verify: ok on a clean store, then names an edited event and a tampered read model', async () => {
    const clean = collect();
    expect(await verifyCommand(t.system, clean.out)).toBe(0);
    expect(clean.lines.at(-1)).toBe('verify: ok');

    await t.system.pool.query(
      `update eventstore.events set data = jsonb_set(data, '{title}', '"Export drops the last rows"')
        where stream_id = $1 and stream_revision = 0`,
      [`bug-${bugId}`],
    );
    const tampered = collect();
    expect(await verifyCommand(t.system, tampered.out)).toBe(1);
    expect(tampered.lines).toContain(
      `  broken: bug-${bugId} revision 0: hash does not match the event and its predecessor`,
    );
    // The edited event changed what a rebuild makes, so the bugs projection differs too.
    expect(
      tampered.lines.some((l) => l.startsWith('projection bugs, table bugs: 1 rows only live, 1 only rebuilt')),
    ).toBe(true);

    // As the CLI: the same verdict as an exit code.
    const cli = run(process.execPath, [path.join(repoRoot, 'testing/src/run-ts.mjs'), 'cli/src/main.ts', 'verify'], {
      cwd: repoRoot,
      env: { ...process.env, DATABASE_URL: t.databaseUrl, LOG_LEVEL: 'silent' },
    });
    await expect(cli).rejects.toMatchObject({ code: 1 });
  }, 120_000);
});
