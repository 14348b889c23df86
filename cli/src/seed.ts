import path from 'node:path';
import { type BugStatus, generalProject, type Priority, type Role, type Severity, streams } from '@bugtrail/domain';
import type { NewEvent } from '@bugtrail/eventstore';
import { FolderBlobStore, loadConfig, Metrics, silentLogger, UploadSpool } from '@bugtrail/platform';
import { countLiveBugs, countUsers } from '@bugtrail/projector';
import { Accounts, BugNumbers, createWriteApi, ProjectBugNumbers } from '@bugtrail/write-api';
import { event, reportBug, stableUuid, statusChanged } from './demo/bug-events.js';
import type { System } from './system.js';

/**
 * Demo data for a fresh install, written through the event store: users register
 * through write-api (so they can log in: password "demo-password"), bugs are the
 * domain's events with fixed ids. Running it twice adds nothing.
 */
export const DEMO_PASSWORD = 'demo-password';

const demoUsers: { key: string; name: string; role: Role }[] = [
  { key: 'admin', name: 'Ada Admin', role: 'admin' },
  { key: 'tess', name: 'Tess Tester', role: 'tester' },
  { key: 'tom', name: 'Tom Tester', role: 'tester' },
  { key: 'dana', name: 'Dana Developer', role: 'developer' },
  { key: 'dev', name: 'Devon Developer', role: 'developer' },
  { key: 'kim', name: 'Kim Developer', role: 'developer' },
];

const topics = [
  ['Login button does nothing on Safari', 'auth'],
  ['Dashboard chart shows wrong totals', 'dashboard'],
  ['Profile image upload fails for PNG files', 'profile'],
  ['Search ignores words in the description', 'search'],
  ['Export to spreadsheet times out', 'reports'],
  ['Dark mode text is unreadable in tables', 'ui'],
  ['Chat messages arrive out of order', 'chat'],
  ['Due date picker allows past dates', 'bugs'],
  ['Password reset email never arrives', 'auth'],
  ['Checklist progress stuck at 0 percent', 'bugs'],
  ['Sidebar overlaps content under 1080px', 'ui'],
  ['Notifications repeat after reconnect', 'live'],
] as const;

const emailOf = (key: string) => `${key}@demo.bugtrail.test`;

async function registerUsers(system: System): Promise<Map<string, string>> {
  const config = loadConfig();
  const api = createWriteApi({
    commands: system.commands,
    pool: system.pool,
    tokens: system.tokens,
    changeFeed: system.changeFeed,
    inviteCodes: system.inviteCodes,
    accounts: new Accounts(system.pool),
    config: { ...config, readYourWritesTimeoutMs: 50 },
    logger: silentLogger,
    metrics: new Metrics({ processMetrics: false }),
    blobs: new FolderBlobStore(path.join(config.dataDir, 'uploads')),
    spool: new UploadSpool(config.spool, config),
  });
  const ids = new Map<string, string>();
  for (const user of demoUsers) {
    const existing = await system.pool.query<{ user_id: string }>(
      'select user_id from auth.credentials where lower(email) = $1',
      [emailOf(user.key)],
    );
    if (existing.rows[0]) {
      ids.set(user.key, existing.rows[0].user_id);
      continue;
    }
    const response = await api.fetch(
      new Request('http://seed/api/auth/register', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          name: user.name,
          email: emailOf(user.key),
          password: DEMO_PASSWORD,
          role: user.role,
          ...(user.role === 'admin' ? { adminInviteToken: system.inviteCodes.bootstrapCode } : {}),
        }),
      }),
    );
    const body = (await response.json()) as { _id?: string; message?: string };
    if (response.status !== 201 || !body._id) throw new Error(`seed: register ${user.key}: ${body.message}`);
    ids.set(user.key, body._id);
  }
  return ids;
}

export async function seed(system: System, _args: string[]): Promise<void> {
  const users = await registerUsers(system);
  const id = (key: string) => users.get(key)!;
  const testers = ['tess', 'tom', 'admin'];
  const developers = ['dana', 'dev', 'kim'];
  const priorities: Priority[] = ['Low', 'Medium', 'High'];
  const severities: Severity[] = ['Minor', 'Major', 'Critical'];
  const day = 86_400_000;
  const start = Date.UTC(2025, 0, 6, 9, 0, 0);
  let written = 0;
  let skipped = 0;
  let last: string | null = null;
  const numbers = new BugNumbers(system.pool);
  const projectNumbers = new ProjectBugNumbers(system.pool);

  for (let i = 0; i < 36; i++) {
    const bugId = stableUuid(`bugtrail-seed-bug-${i}`);
    const stream = streams.bug(bugId);
    if ((await system.store.readStream(stream, { limit: 1 })).length > 0) {
      skipped++;
      continue;
    }
    const [title, module] = topics[i % topics.length]!;
    const reporter = testers[i % testers.length]!;
    const assignees = [developers[i % 3]!, ...(i % 4 === 0 ? [developers[(i + 1) % 3]!] : [])];
    const reportedAt = start + i * day * 0.8;
    const at = (offsetHours: number) => new Date(reportedAt + offsetHours * 3_600_000).toISOString();
    const events: NewEvent[] = reportBug(
      {
        bugId,
        number: await numbers.assign(bugId),
        project: { id: generalProject.id, number: await projectNumbers.assign(generalProject.id, bugId) },
        reporterId: id(reporter),
        title: i < topics.length ? title : `${title} (#${i + 1})`,
        description: `${title}. Seen on build ${100 + i}; steps below reproduce it every time.`,
        priority: priorities[i % 3]!,
        severity: severities[(i * 2) % 3]!,
        module,
        dueDate: i % 3 === 0 ? null : new Date(reportedAt + 14 * day).toISOString(),
        assigneeIds: assignees.map(id),
        checklist: ['Reproduce on a clean profile', 'Find the cause', 'Write a regression test'].slice(0, 1 + (i % 3)),
        attachments: i % 5 === 0 ? [`https://example.com/screenshots/${i + 1}.png`] : [],
      },
      { at: at(0), idPrefix: `bugtrail-seed-bug-${i}` },
    );
    const developer = id(assignees[0]!);
    const opts = (n: number, h: number) => ({ actorId: developer, at: at(h), id: stableUuid(`seed-${i}-x${n}`) });
    const target: BugStatus = (['Open', 'In Progress', 'Closed', 'In Progress', 'Closed', 'Open'] as const)[i % 6]!;
    if (target !== 'Open') {
      events.push(statusChanged(bugId, 'Open', 'In Progress', opts(1, 4)));
      const firstItem = events.find((e) => e.type === 'ChecklistItemAdded');
      if (firstItem) {
        const itemId = (firstItem.data as { itemId: string }).itemId;
        events.push(event('ChecklistItemCompleted', { bugId, itemId, by: developer, at: at(6) }, opts(2, 6)));
      }
      if (target === 'Closed') events.push(statusChanged(bugId, 'In Progress', 'Closed', opts(3, 30)));
    }
    if (i === 35) events.push(event('BugDeleted', { bugId }, { ...opts(4, 40), actorId: id('admin') }));
    const result = await system.store.append(stream, events, 'no_stream');
    last = result.position;
    written++;
  }
  if (last) {
    // When no projector runs elsewhere, this one brings the read models up to date.
    system.projector.start();
    await system.changeFeed.waitFor(last, 30_000);
  }
  const [userCount, bugCount] = await Promise.all([countUsers(system.db), countLiveBugs(system.db)]);
  process.stdout.write(
    [
      `seed: ${users.size} demo users (password "${DEMO_PASSWORD}", emails *@demo.bugtrail.test), ${written} bugs written, ${skipped} already there`,
      `read models: ${userCount} users, ${bugCount} live bugs`,
      '',
    ].join('\n'),
  );
}
