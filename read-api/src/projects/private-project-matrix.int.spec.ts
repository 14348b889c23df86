import { type HttpAnswer, http, registerAuditor, registerUser, SseReader, type TestUser } from '@bugtrail/testing';
import { startTestSystem, type TestSystem } from '@bugtrail/testing/system';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * Issue 35's IDOR matrix: every read operation of /api/openapi.json × a non-member tester, a
 * non-member developer, a member, an auditor and an admin, against a bug of a private project.
 * The non-members are the hardest kind: its reporter and one of its assignees, who were members
 * and were removed. To them the bug does not exist: no answer names it (status, body, count,
 * SSE frame), every answer is what it was before the bug was reported, and addressing it is 404.
 * The member, the auditor and the admin see it (the positive control: the checks can fail).
 */

/** A word only the private bug's title, description and comments carry. */
const MARK = 'Vaultmarkzq';

type Actor = 'outsiderTester' | 'outsiderDeveloper' | 'member' | 'auditor' | 'admin';
const outsiders: readonly Actor[] = ['outsiderTester', 'outsiderDeveloper'];
const insiders: readonly Actor[] = ['member', 'auditor', 'admin'];

/** Paths that address something other than a bug, or are not JSON reads: covered elsewhere or below. */
const notWalked = new Set([
  'get /api/events', // the live stream: its frames are checked below
  'get /metrics', // the operator's Prometheus text: counts of requests, no bug data
  'get /api/chats/{id}',
  'get /api/chats/{id}/messages',
  'get /chats/{id}',
  'get /chats/{id}/messages',
  'get /uploads/chat/{year}/{month}/{file}',
  'get /uploads/profile/{year}/{month}/{file}',
]);

/** Answers that may differ from before for reasons of their own (who the team is, which projects one is in). */
const changesForOtherReasons = new Set([
  'get /api/projects',
  'get /api/users',
  'get /users',
  'get /api/openapi.json',
  'get /health',
  'get /ready',
]);

describe('a private project’s bug, through every read operation and the live stream (issue 35)', () => {
  let t: TestSystem;
  let api: ReturnType<typeof http>;
  const people = {} as Record<Actor, TestUser>;
  let sec: { _id: string; key: string };
  let bug: { _id: string; number: number; key: string };
  let fileId: string;
  let milestoneId: string;
  let ruleId: string;
  let policyId: string;
  let publicBugId: string;
  const streams = new Map<Actor, SseReader>();
  const before = new Map<string, HttpAnswer>();

  const addressing = (template: string) => template.includes('{');

  /** The paths one operation is walked with: its path parameters filled with the private bug's, and a few queries. */
  function pathsOf(method: string, template: string): string[] {
    if (method !== 'get') return [];
    const filled = template
      .replace('/api/bugs/user/{id}', `/api/bugs/user/${people.outsiderTester.id}`)
      .replace('/api/users/{id}', `/api/users/${people.member.id}`)
      .replace('/api/bugs/{id}', `/api/bugs/${bug._id}`)
      .replace('{fileId}', fileId)
      .replace('{n}', String(bug.number))
      .replace('{key}', bug.key)
      .replace('{idOrKey}', sec._id)
      .replace('/api/milestones/{id}', `/api/milestones/${milestoneId}`)
      .replace('/api/automations/{id}', `/api/automations/${ruleId}`)
      .replace('/api/sla/{id}', `/api/sla/${policyId}`)
      // Admins' own objects, refused to everyone else at the door.
      .replace('/api/webhooks/{id}', '/api/webhooks/00000000-0000-4000-8000-000000000000');
    if (filled.includes('{')) throw new Error(`${method} ${template}: a path parameter was left unfilled`);
    if (template === '/api/bugs' || template === '/api/bugs/all-viewable') {
      return [filled, `${filled}?q=${MARK}`, `${filled}?q=${bug.key}`, `${filled}?project=${sec.key}`];
    }
    if (template === '/api/projects/{idOrKey}') return [filled, `/api/projects/${sec.key}`];
    // Time logged on the private bug (issue 37): every day's, the bug's own, and the CSV export.
    if (template === '/api/worklog') {
      return [`${filled}?from=2000-01-01`, `${filled}?bug=${bug._id}`, `${filled}?from=2000-01-01&project=${sec.key}`];
    }
    // As CSV: a spreadsheet carries the time it was made, so two would never be equal.
    if (template === '/api/reports/export/worklog') return [`${filled}?from=2000-01-01&format=csv`];
    return [filled];
  }

  let operations: { key: string; template: string; paths: string[] }[] = [];

  const read = (path: string, who: Actor) => api.get(path, people[who].token);
  const text = (answer: HttpAnswer) => (typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body));

  beforeAll(async () => {
    t = await startTestSystem();
    api = http(t.url);
    people.admin = await registerUser(t.url, 'admin', 'Ada Admin');
    people.auditor = await registerAuditor(t.url, people.admin.token, 'Aud Itor');
    people.member = await registerUser(t.url, 'developer', 'Dana Member');
    people.outsiderTester = await registerUser(t.url, 'tester', 'Tess Former');
    people.outsiderDeveloper = await registerUser(t.url, 'developer', 'Dave Former');
    const made = await api.post('/api/projects', { key: 'SEC', name: 'Security', private: true }, people.admin.token);
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    sec = made.body;
    for (const who of ['member', 'outsiderTester', 'outsiderDeveloper'] as const) {
      const added = await api.call('PUT', `/api/projects/${sec._id}/members/${people[who].id}`, {
        body: { role: 'member' },
        token: people.admin.token,
      });
      expect(added.status, JSON.stringify(added.body)).toBe(200);
    }
    // A bug the outsiders share in the default project: their lists are not empty.
    const open = await api.post(
      '/api/bugs',
      {
        title: 'Footer links misaligned',
        description: 'The footer links wrap on narrow screens.',
        priority: 'Low',
        severity: 'Minor',
        assignedTo: [people.outsiderDeveloper.id],
      },
      people.outsiderTester.token,
    );
    expect(open.status, JSON.stringify(open.body)).toBe(201);
    publicBugId = open.body.bug._id;

    const doc = await api.get('/api/openapi.json');
    expect(doc.status).toBe(200);
    // Everything the outsiders read before the private bug existed.
    operations = [];
    const placeholders = { _id: 'x', number: 999_999, key: 'SEC-999' };
    bug = placeholders;
    fileId = 'x';
    milestoneId = 'x';
    ruleId = 'x';
    policyId = 'x';
    for (const [template, item] of Object.entries(doc.body.paths as Record<string, Record<string, unknown>>)) {
      for (const method of Object.keys(item)) {
        const key = `${method} ${template}`;
        if (method !== 'get' || notWalked.has(key)) continue;
        operations.push({ key, template, paths: [] });
      }
    }
    for (const operation of operations) {
      if (addressing(operation.template) || changesForOtherReasons.has(operation.key)) continue;
      for (const path of pathsOf('get', operation.template)) {
        for (const who of outsiders) before.set(`${who} ${path}`, await read(path, who));
      }
    }

    // The private bug: reported by the tester, given to the member and the developer, discussed, with a file.
    const reported = await api.post(
      '/api/bugs',
      {
        title: `Vault breach ${MARK}`,
        description: `Tokens leak through the ${MARK} endpoint.`,
        priority: 'High',
        severity: 'Critical',
        assignedTo: [people.member.id, people.outsiderDeveloper.id],
        checklist: ['Rotate the keys'],
        projectId: sec.key,
      },
      people.outsiderTester.token,
    );
    expect(reported.status, JSON.stringify(reported.body)).toBe(201);
    bug = reported.body.bug;
    expect(bug.key).toBe('SEC-1');
    const commented = await api.post(
      `/api/bugs/${bug._id}/comments`,
      { body: `Confirmed: ${MARK} leaks.`, mentions: [people.outsiderTester.id] },
      people.member.token,
    );
    expect(commented.status, JSON.stringify(commented.body)).toBe(201);
    const form = new FormData();
    form.append('file', new Blob([`${MARK} log`], { type: 'text/plain' }), 'leak.txt');
    const uploaded = await fetch(`${t.url}/api/bugs/${bug._id}/attachments`, {
      method: 'POST',
      headers: { authorization: `Bearer ${people.outsiderTester.token}` },
      body: form,
    });
    const uploadedBody = (await uploaded.json()) as { bug: { files: { _id: string }[] } };
    expect(uploaded.status, JSON.stringify(uploadedBody)).toBe(201);
    fileId = uploadedBody.bug.files[0]!._id;
    // Planned into a milestone of its project, and related to the outsiders' public bug (issue 36).
    const milestone = await api.post(
      `/api/projects/${sec._id}/milestones`,
      { name: `Vault ${MARK}` },
      people.admin.token,
    );
    expect(milestone.status, JSON.stringify(milestone.body)).toBe(201);
    milestoneId = milestone.body._id;
    // A rule of the project, named with the mark (issue 38): its leads and admins read it.
    const rule = await api.post(
      '/api/automations',
      {
        name: `Vault rule ${MARK}`,
        projectId: sec._id,
        when: { event: 'bug.reported', conditions: [] },
        then: [{ type: 'comment', body: `Seen ${MARK}` }],
      },
      people.admin.token,
    );
    expect(rule.status, JSON.stringify(rule.body)).toBe(201);
    ruleId = rule.body._id;
    // An SLA policy of the project, named with the mark (issue 38): its bugs' answers name it.
    const policy = await api.post(
      '/api/sla',
      { name: `Vault SLA ${MARK}`, projectId: sec._id, conditions: [], respondWithin: '4h' },
      people.admin.token,
    );
    expect(policy.status, JSON.stringify(policy.body)).toBe(201);
    policyId = policy.body._id;
    // Time logged on it, with a note only its project may read (issue 37).
    const logged = await api.post(
      `/api/bugs/${bug._id}/worklog`,
      { minutes: 45, on: '2026-01-05', note: `Traced ${MARK}` },
      people.member.token,
    );
    expect(logged.status, JSON.stringify(logged.body)).toBe(201);
    for (const [path, body] of [
      [`/api/bugs/${bug._id}/milestone`, { milestoneId }],
      [`/api/bugs/${bug._id}/relations`, { type: 'blocks', bugId: publicBugId }],
    ] as const) {
      const planned = await api.call(path.endsWith('relations') ? 'POST' : 'PUT', path, {
        body,
        token: people.admin.token,
      });
      expect(planned.status, JSON.stringify(planned.body)).toBeLessThan(300);
    }

    // Their streams, opened while they were members, hear the bug; the removal ends them.
    const early = await Promise.all(outsiders.map((who) => SseReader.open(t.url, people[who].token)));
    for (const who of outsiders) {
      const removed = await api.delete(`/api/projects/${sec._id}/members/${people[who].id}`, people.admin.token);
      expect(removed.status, JSON.stringify(removed.body)).toBe(200);
    }
    for (const stream of early) {
      await stream.waitForEnd();
      expect(stream.retryMs).toBe(1000);
      stream.close();
    }

    for (const who of [...outsiders, ...insiders]) streams.set(who, await SseReader.open(t.url, people[who].token));
    // After the removal: the work goes on, and would tell its reporter and assignees.
    for (const [path, body] of [
      [`/api/bugs/${bug._id}/status`, { status: 'In Progress' }],
      [`/api/bugs/${bug._id}/checklist`, { checklist: [{ text: 'Rotate the keys', completed: true }] }],
    ] as const) {
      const changed = await api.put(path, body, people.member.token);
      expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    }
    const again = await api.post(`/api/bugs/${bug._id}/comments`, { body: `${MARK} patched` }, people.member.token);
    expect(again.status, JSON.stringify(again.body)).toBe(201);
    // A fence every stream hears: once it arrives, every frame of the changes above has been sent.
    const fence = await api.call('PUT', `/api/users/${people.admin.id}`, {
      body: { name: 'Ada Admin Fenced' },
      token: people.admin.token,
    });
    expect(fence.status, JSON.stringify(fence.body)).toBe(200);
    for (const stream of streams.values()) {
      await stream.waitFor((m) => m.topics.includes(`user:${people.admin.id}`));
    }
  }, 120_000);

  afterAll(async () => {
    for (const stream of streams.values()) stream.close();
    await t?.close();
  });

  it('walks every read operation but the stream, chats and uploads', () => {
    const keys = operations.map((o) => o.key);
    for (const key of [
      'get /api/bugs',
      'get /api/bugs/{id}',
      'get /api/bugs/by-key/{key}',
      'get /api/bugs/by-number/{n}',
      'get /api/bugs/{id}/history',
      'get /api/bugs/{id}/comments',
      'get /api/bugs/{id}/attachments/{fileId}',
      'get /api/bugs/tester-dashboard',
      'get /api/bugs/developer-dashboard',
      'get /api/notifications',
      'get /api/projects/{idOrKey}',
    ]) {
      expect(keys).toContain(key);
    }
  });

  it('answers the non-members as if the bug never existed: 404 where addressed, and nothing changed elsewhere', async () => {
    let compared = 0;
    let notFound = 0;
    for (const { key, template } of operations) {
      for (const path of pathsOf('get', template)) {
        for (const who of outsiders) {
          const answer = await read(path, who);
          const where = `${who} ${key} (${path}): ${answer.status} ${text(answer).slice(0, 300)}`;
          expect(answer.status, where).not.toBe(500);
          for (const secret of [bug._id, bug.key, MARK, fileId, sec._id, milestoneId])
            expect(text(answer), where).not.toContain(secret);
          // Addressed by what only the private bug (or its project) has: as if it did not exist.
          if (
            [bug._id, bug.key, `/by-number/${bug.number}`, sec._id, `/${sec.key}`, milestoneId].some((name) =>
              path.split('?')[0]!.includes(name),
            )
          ) {
            expect(answer.status, where).toBe(404);
            notFound += 1;
          }
          const earlier = before.get(`${who} ${path}`);
          if (earlier && !changesForOtherReasons.has(key)) {
            expect(answer.status, where).toBe(earlier.status);
            expect(text(answer), where).toBe(text(earlier));
            compared += 1;
          }
        }
      }
    }
    // Both kinds of checks ran over the surface: the lists, counts and dashboards, and the addressed reads.
    expect(compared).toBeGreaterThanOrEqual(30);
    expect(notFound).toBeGreaterThanOrEqual(14);
  });

  it('answers the member, the auditor and the admin with the bug wherever it is addressed', async () => {
    for (const who of insiders) {
      for (const path of [
        `/api/bugs/${bug._id}`,
        `/api/bugs/by-key/${bug.key}`,
        `/api/bugs/by-number/${bug.number}`,
        `/api/bugs/${bug._id}/history`,
        `/api/bugs/${bug._id}/comments`,
        `/api/bugs/${bug._id}/attachments/${fileId}`,
        `/api/bugs?q=${MARK}`,
        `/api/milestones/${milestoneId}`,
        `/api/projects/${sec.key}/milestones`,
      ]) {
        const answer = await read(path, who);
        expect(answer.status, `${who} ${path}`).toBe(200);
        expect(text(answer), `${who} ${path}`).toContain(MARK);
      }
    }
    const listed = await read(`/api/projects/${sec.key}`, 'member');
    expect(listed.status).toBe(200);
    // The public bug it blocks shows the relation to those who see both.
    const blocked = await read(`/api/bugs/${publicBugId}`, 'admin');
    expect(blocked.body.relations).toEqual([
      expect.objectContaining({ type: 'blocked_by', bug: expect.objectContaining({ _id: bug._id }) }),
    ]);
  });

  it('sends the non-members no frame of the bug’s changes; the others hear them', () => {
    const admin = streams.get('admin')!;
    const about = admin.messages.filter((m) => m.topics.some((topic) => topic.includes(bug._id)));
    expect(about.length).toBeGreaterThan(0);
    for (const who of ['member', 'auditor'] as const) {
      expect(
        streams.get(who)!.messages.some((m) => m.topics.includes(`bug:${bug._id}`)),
        who,
      ).toBe(true);
    }
    const positions = new Set(about.map((m) => m.position));
    for (const who of outsiders) {
      const heard = streams.get(who)!.messages;
      expect(
        heard.some((m) => m.topics.some((topic) => topic.includes(bug._id))),
        who,
      ).toBe(false);
      expect(
        heard.filter((m) => positions.has(m.position)),
        `${who} heard a frame of the private bug's changes`,
      ).toEqual([]);
    }
    // The outsiders' streams are live: they heard the fence, and the public bug is theirs to hear of.
    expect(publicBugId).toBeTruthy();
  });

  it('refuses the triage suggestions the private bug, to a non-member who types its title', async () => {
    for (const who of ['outsiderTester'] as const) {
      const answer = await api.post('/api/bugs/suggestions', { title: `Vault breach ${MARK}` }, people[who].token);
      expect(answer.status).toBe(200);
      for (const secret of [bug._id, bug.key, MARK]) expect(text(answer)).not.toContain(secret);
    }
    const admin = await api.post('/api/bugs/suggestions', { title: `Vault breach ${MARK}` }, people.admin.token);
    expect(text(admin)).toContain(bug._id);
  });
});
