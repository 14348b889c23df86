import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { countStoredEvents, http, registerUser, type TestUser } from '@bugtrail/testing';
import { startTestSystem, type TestSystem } from '@bugtrail/testing/system';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importCommand } from './import-command.js';

/** `bugtrail import`: the file streamed to POST /api/import with an admin's token; progress on stderr. */
describe('bugtrail import', () => {
  let t: TestSystem;
  let dir: string;
  let admin: TestUser;
  let secret: string;

  const run = async (args: string[], env: NodeJS.ProcessEnv = {}) => {
    const out: string[] = [];
    let err = '';
    const code = await importCommand(args, {
      out: (line) => out.push(line),
      err: (text) => {
        err += text;
      },
      isTTY: true,
      env: { BUGTRAIL_URL: t.url, ...env },
    });
    return { code, out, err };
  };

  beforeAll(async () => {
    t = await startTestSystem();
    dir = await mkdtemp(path.join(os.tmpdir(), 'bugtrail-import-cli-'));
    admin = await registerUser(t.url, 'admin', 'Ada Admin');
    const created = await http(t.url).post('/api/tokens', { name: 'import', scope: 'write' }, admin.token);
    secret = created.body.secret;
  });
  afterAll(async () => {
    await t?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('previews with --dry-run, refuses a file with an invalid row, imports with --skip-invalid, then skips', async () => {
    const file = path.join(dir, 'redmine.csv');
    const rows = Array.from(
      { length: 1200 },
      (_, i) => `${i + 1},Bug,New,Normal,Issue ${i + 1},Rita,,2022-01-01 10:00`,
    );
    await writeFile(
      file,
      ['#,Tracker,Status,Priority,Subject,Author,Assignee,Created', ...rows, '1201,Bug,New,Normal,,Rita,,'].join('\n'),
    );
    const before = await countStoredEvents(t.system.pool);

    const dry = await run([file, '--from', 'redmine', '--dry-run', '--token', secret]);
    expect(dry.code).toBe(1);
    expect(dry.out[0]).toBe('Dry run (nothing changed): 1,200 bugs to import from Redmine, 0 already here.');
    expect(dry.out).toContain('  row 1202: Title is required');
    expect(dry.err).toContain('uploading 100%');

    const blocked = await run([file, '--from=redmine', '--token', secret]);
    expect(blocked.code).toBe(1);
    expect(blocked.out[0]).toBe(
      'Nothing imported: the file has invalid rows. Fix them, or import the others with --skip-invalid.',
    );
    expect(await countStoredEvents(t.system.pool)).toBe(before);

    const imported = await run([file, '--from', 'redmine', '--skip-invalid'], { BUGTRAIL_TOKEN: secret });
    expect(imported.code).toBe(0);
    expect(imported.out[0]).toBe('Imported 1,200 bugs from Redmine; 0 already here.');
    expect(imported.err).toContain('importing 500 of 1,200 bugs (41%)');
    expect(imported.err).toContain('importing 1,200 of 1,200 bugs (100%)');

    const again = await run([file, '--from', 'redmine', '--skip-invalid', '--json', '--token', secret]);
    expect(again.code).toBe(0);
    expect(JSON.parse(again.out.join('\n'))).toEqual({
      imported: 0,
      skipped: 1200,
      errors: [{ row: 1202, message: 'Title is required' }],
    });
  });

  it('says what is missing or refused', async () => {
    expect((await run(['--from', 'redmine', '--token', secret])).err).toContain('no file named');
    expect((await run(['x.csv', '--from', 'trac', '--token', secret])).err).toContain(
      '--from must be one of redmine, jira, github',
    );
    expect((await run(['x.csv', '--from', 'jira'])).err).toContain("an admin's API token is needed");
    expect((await run([path.join(dir, 'none.csv'), '--from', 'jira', '--token', secret])).err).toContain('cannot read');
    const garbage = path.join(dir, 'garbage.json');
    await writeFile(garbage, '{"not": "an array"}');
    const refused = await run([garbage, '--from', 'github', '--token', secret]);
    expect(refused.code).toBe(1);
    expect(refused.err).toContain("400 This is not GitHub's issue JSON");
    const tester = await registerUser(t.url, 'tester');
    const forbidden = await run([garbage, '--from', 'github', '--token', tester.token]);
    expect(forbidden.err).toContain('403 Only admins can import bugs');
  });
});
