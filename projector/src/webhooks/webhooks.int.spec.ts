import { eventually, http, registerAuditor, registerUser, type TestUser } from '@bugtrail/testing';
import { startTestSystem, type TestSystem } from '@bugtrail/testing/system';
import { startWebhookReceiver, type WebhookReceiver } from '@bugtrail/testing/webhooks';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

const NOT_PUBLIC = 'Webhook URL must be a public address';
const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Outgoing webhooks (api.md "Integrations") over real HTTP: the product on a real PostgreSQL,
 * receivers on 127.0.0.1 (opened with WEBHOOK_ALLOW_HOSTS) that verify every message with the
 * `standardwebhooks` package.
 */
describe('outgoing webhooks', () => {
  let t: TestSystem;
  let api: ReturnType<typeof http>;
  let admin: TestUser;
  let tester: TestUser;
  let developer: TestUser;
  const receivers: WebhookReceiver[] = [];

  const bug = (title = 'Export drops the last row') => ({
    title,
    description: 'The xlsx export loses its final row every time',
    priority: 'High',
    severity: 'Major',
    assignedTo: [developer.id],
  });
  const subscribe = async (receiver: WebhookReceiver, events: string[] = ['*']) => {
    const answer = await api.post(
      '/api/webhooks',
      { url: `${receiver.url}/hook`, events, description: 'CI' },
      admin.token,
    );
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    receiver.useSecret(answer.body.secret);
    return answer.body.webhook as { _id: string };
  };
  const receiver = async (options: Parameters<typeof startWebhookReceiver>[0] = {}) => {
    const started = await startWebhookReceiver(options);
    receivers.push(started);
    return started;
  };

  beforeAll(async () => {
    t = await startTestSystem({
      config: {
        webhooks: { allowHosts: ['127.0.0.1'], retryBaseMs: 20, disableAfter: 2 },
      },
    });
    api = http(t.url);
    admin = await registerUser(t.url, 'admin', 'Ada Admin');
    tester = await registerUser(t.url, 'tester', 'Tess Tester');
    developer = await registerUser(t.url, 'developer', 'Dan Dev');
  });
  afterEach(async () => {
    // Each test's webhooks go with it: the next test's receivers hear only their own.
    const { body } = await api.get('/api/webhooks', admin.token);
    for (const webhook of body.webhooks) await api.delete(`/api/webhooks/${webhook._id}`, admin.token);
  });
  afterAll(async () => {
    for (const r of receivers) await r.close();
    await t?.close();
  });

  it('delivers every change of a bug in order, signed so that standardwebhooks verifies it', async () => {
    const hook = await receiver();
    const webhook = await subscribe(hook);
    const reported = await api.post('/api/bugs', bug(), tester.token);
    expect(reported.status).toBe(201);
    const id = reported.body.bug._id;
    expect((await api.put(`/api/bugs/${id}/status`, { status: 'In Progress' }, developer.token)).status).toBe(200);
    expect((await api.post(`/api/bugs/${id}/comments`, { body: 'On it' }, developer.token)).status).toBe(201);

    await eventually(async () => (hook.received.length >= 4 ? true : null));
    const types = hook.received.map((m) => m.verified?.type);
    // A report with assignees is two changes: reported, then assigned.
    expect(types).toEqual(['bug.reported', 'bug.assigned', 'bug.status_changed', 'comment.created']);
    for (const message of hook.received) {
      expect(message.verified, message.body).not.toBeNull();
      expect(message.signature).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    }
    const [first, assigned, moved, comment] = hook.received.map((m) => m.verified!) as [any, any, any, any];
    expect(assigned.data.changes).toContainEqual({ field: 'assignedTo', from: [], to: [developer.id] });
    expect(first.data.bug).toMatchObject({ _id: id, title: 'Export drops the last row', status: 'Open' });
    expect(first.data.actor).toEqual({ _id: tester.id, name: 'Tess Tester' });
    expect(moved.data.bug.status).toBe('In Progress');
    expect(moved.data.changes).toContainEqual({ field: 'status', from: 'Open', to: 'In Progress' });
    expect(comment.data.comment).toMatchObject({ body: 'On it', author: { _id: developer.id, name: 'Dan Dev' } });
    // webhook-id is the event's id.
    const events = await t.system.store.readStream(`bug-${id}`);
    expect(hook.received[0]!.id).toBe(events.find((e) => e.type === 'BugReported')!.id);

    const log = await eventually(async () => {
      const answer = await api.get(`/api/webhooks/${webhook._id}/deliveries`, admin.token);
      return answer.body.deliveries.length >= 4 ? answer.body.deliveries : null;
    });
    expect(log[0]).toMatchObject({ type: 'comment.created', attempt: 1, status: 200, error: null });
    expect(log.map((d: { type: string }) => d.type)).toEqual([
      'comment.created',
      'bug.status_changed',
      'bug.assigned',
      'bug.reported',
    ]);
  });

  it('hears only the types it subscribed to, and nothing from before it existed', async () => {
    const before = await api.post('/api/bugs', bug('Reported before the webhook'), tester.token);
    const hook = await receiver();
    await subscribe(hook, ['bug.status_changed']);
    const id = before.body.bug._id;
    await api.put(`/api/bugs/${id}/status`, { status: 'In Progress' }, developer.token);
    await api.post('/api/bugs', bug('Reported after'), tester.token);
    await eventually(async () => (hook.received.length >= 1 ? true : null));
    await wait(300);
    expect(hook.received.map((m) => m.verified?.type)).toEqual(['bug.status_changed']);
  });

  it('hears only the projects it is narrowed to (issue 35), by key or id; an unknown project is 404', async () => {
    const shop = (await api.post('/api/projects', { key: 'SHOP', name: 'Shop' }, admin.token)).body;
    const hook = await receiver();
    const made = await api.post(
      '/api/webhooks',
      { url: `${hook.url}/hook`, events: ['bug.reported'], projects: ['SHOP'] },
      admin.token,
    );
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    expect(made.body.webhook.projects).toEqual([shop._id]);
    hook.useSecret(made.body.secret);
    await api.post('/api/bugs', bug('In the default project'), tester.token);
    const inShop = await api.post('/api/bugs', { ...bug('In the shop'), projectId: 'SHOP' }, tester.token);
    expect(inShop.status, JSON.stringify(inShop.body)).toBe(201);
    await eventually(async () => (hook.received.length >= 1 ? true : null));
    await wait(300);
    expect(hook.received.map((m) => (m.verified as any)?.data.bug.title)).toEqual(['In the shop']);
    const unknown = await api.post(
      '/api/webhooks',
      { url: `${hook.url}/hook`, events: ['*'], projects: ['NOPE'] },
      admin.token,
    );
    expect(unknown.status).toBe(404);
    const widened = await api.put(`/api/webhooks/${made.body.webhook._id}`, { projects: null }, admin.token);
    expect(widened.status, JSON.stringify(widened.body)).toBe(200);
    expect(widened.body.webhook.projects).toBeNull();
  });

  it('retries with backoff, and keeps the next change of the same bug waiting until the first arrives', async () => {
    const hook = await receiver({ answer: (_, n) => (n < 2 ? 503 : 200) });
    const webhook = await subscribe(hook);
    const reported = await api.post('/api/bugs', bug(), tester.token);
    await api.put(`/api/bugs/${reported.body.bug._id}/status`, { status: 'In Progress' }, developer.token);
    await eventually(async () => (hook.received.filter((m) => m.status === 200).length >= 3 ? true : null));
    // The report: twice refused, then taken, the same id each time; only then the next changes.
    const report = hook.received[0]!.id;
    expect(hook.received.map((m) => [m.id === report ? 'report' : m.verified?.type, m.status])).toEqual([
      ['report', 503],
      ['report', 503],
      ['report', 200],
      ['bug.assigned', 200],
      ['bug.status_changed', 200],
    ]);
    const { body } = await api.get(`/api/webhooks/${webhook._id}/deliveries`, admin.token);
    expect(
      body.deliveries.map((d: { type: string; attempt: number; status: number }) => [d.type, d.attempt, d.status]),
    ).toEqual([
      ['bug.status_changed', 1, 200],
      ['bug.assigned', 1, 200],
      ['bug.reported', 3, 200],
      ['bug.reported', 2, 503],
      ['bug.reported', 1, 503],
    ]);
  });

  it('switches a webhook off after WEBHOOK_DISABLE_AFTER events in a row fail, and tells the admins', async () => {
    const hook = await receiver({ answer: () => 500 });
    const webhook = await subscribe(hook);
    await api.post('/api/bugs', bug('First failing'), tester.token);
    await api.post('/api/bugs', bug('Second failing'), tester.token);
    // 8 attempts each at 20, 40, … 2,560 ms: about 5 s per event.
    await eventually(async () => {
      const { body } = await api.get(`/api/webhooks/${webhook._id}`, admin.token);
      return body.webhook.active === false ? true : null;
    }, 300);
    // Two events of 8 attempts each failed (others may have been on their way meanwhile).
    const attempts = new Map<string, number>();
    for (const m of hook.received) attempts.set(m.id, (attempts.get(m.id) ?? 0) + 1);
    expect([...attempts.values()].filter((n) => n === 8).length).toBeGreaterThanOrEqual(2);
    const sent = hook.received.length;
    await api.post('/api/bugs', bug('While switched off'), tester.token);
    await wait(500);
    expect(hook.received.length).toBe(sent);
    const notifications = await eventually(async () => {
      const { body } = await api.get('/api/notifications', admin.token);
      const found = body.notifications.find((n: { kind: string }) => n.kind === 'webhook_disabled');
      return found ?? null;
    });
    expect(notifications.text).toContain(hook.url);
    // Switched on again by an admin: it counts afresh.
    const on = await api.put(`/api/webhooks/${webhook._id}`, { active: true }, admin.token);
    expect(on.body.webhook.active).toBe(true);
  }, 60_000);

  it('pings, and redelivers a logged message with the same webhook-id', async () => {
    const hook = await receiver();
    const webhook = await subscribe(hook);
    expect((await api.post(`/api/webhooks/${webhook._id}/ping`, {}, admin.token)).status).toBe(202);
    await eventually(async () => (hook.received.length >= 1 ? true : null));
    expect(hook.received[0]!.verified).toMatchObject({ type: 'ping' });

    await api.post('/api/bugs', bug(), tester.token);
    await eventually(async () => (hook.received.length >= 3 ? true : null));
    const { body } = await eventually(async () => {
      const answer = await api.get(`/api/webhooks/${webhook._id}/deliveries`, admin.token);
      return answer.body.deliveries.length >= 3 ? answer : null;
    });
    const delivered = body.deliveries.find((d: { type: string }) => d.type === 'bug.reported');
    const again = await api.post(`/api/webhooks/${webhook._id}/deliveries/${delivered._id}/redeliver`, {}, admin.token);
    expect(again.status).toBe(202);
    await eventually(async () => (hook.received.length >= 4 ? true : null));
    const first = hook.received.find((m) => m.id === delivered.eventId)!;
    expect(hook.received[3]!.id).toBe(delivered.eventId);
    expect(hook.received[3]!.body).toBe(first.body);
    expect(hook.received[3]!.verified).not.toBeNull();
    const missing = '00000000-0000-4000-8000-000000000000';
    expect(
      (await api.post(`/api/webhooks/${webhook._id}/deliveries/${missing}/redeliver`, {}, admin.token)).status,
    ).toBe(404);
  });

  it("keeps at most 1 kB of a receiver's answer, whatever bytes it holds", async () => {
    const hook = await receiver({ body: `ok\u0000${'x'.repeat(5000)}` });
    const webhook = await subscribe(hook);
    await api.post(`/api/webhooks/${webhook._id}/ping`, {}, admin.token);
    const log = await eventually(async () => {
      const { body } = await api.get(`/api/webhooks/${webhook._id}/deliveries`, admin.token);
      return body.deliveries[0] ?? null;
    });
    expect(log).toMatchObject({ type: 'ping', status: 200, error: null });
    const { rows } = await t.system.pool.query('select response from webhooks.deliveries where id = $1', [log._id]);
    expect(rows[0].response.length).toBeLessThanOrEqual(1024);
    expect(rows[0].response.startsWith('okxxx')).toBe(true);
    expect(hook.received).toHaveLength(1);
  });

  it('follows no redirect: a 3xx is a failed attempt, logged as such', async () => {
    const hook = await receiver({ answer: () => 307 });
    const webhook = await subscribe(hook);
    expect((await api.post(`/api/webhooks/${webhook._id}/ping`, {}, admin.token)).status).toBe(202);
    const log = await eventually(async () => {
      const { body } = await api.get(`/api/webhooks/${webhook._id}/deliveries`, admin.token);
      return body.deliveries[0] ?? null;
    });
    expect(log).toMatchObject({ type: 'ping', status: 307, error: 'HTTP 307 (redirects are not followed)' });
    expect(hook.received).toHaveLength(1);
  });

  it('refuses URLs that are not public addresses, in any notation', async () => {
    for (const url of [
      'http://10.0.0.8/hook',
      'http://169.254.169.254/latest/meta-data/',
      'http://[::1]/hook',
      'http://[::ffff:a9fe:a9fe]/',
      'http://0.0.0.0/',
      'http://167772161/',
      'http://192.168.1.20:8080/',
    ]) {
      const answer = await api.post('/api/webhooks', { url, events: ['*'] }, admin.token);
      expect(answer.status, url).toBe(400);
      expect(answer.body.details?.[0]).toEqual({ field: 'url', message: NOT_PUBLIC });
    }
    for (const [body, message] of [
      [{ url: 'ftp://example.com/', events: ['*'] }, 'Webhook URL must be an http or https URL'],
      [{ url: 'https://example.com/', events: [] }, 'Pick at least one event type, or "*" for all'],
      [{ url: 'https://example.com/', events: ['bug.exploded'] }, /^Events must be/],
    ] as const) {
      const answer = await api.post('/api/webhooks', body, admin.token);
      expect(answer.status).toBe(400);
      expect(answer.body.details[0].message).toMatch(message);
    }
    expect((await api.get('/api/webhooks', admin.token)).body.webhooks).toEqual([]);
  });

  it('is for admins: others are refused, auditors read, and no API token manages webhooks', async () => {
    const body = { url: 'https://hooks.example.com/bugtrail', events: ['*'] };
    for (const user of [tester, developer]) {
      expect((await api.post('/api/webhooks', body, user.token)).status).toBe(403);
      expect((await api.get('/api/webhooks', user.token)).status).toBe(403);
    }
    const auditor = await registerAuditor(t.url, admin.token);
    expect((await api.get('/api/webhooks', auditor.token)).status).toBe(200);
    expect((await api.post('/api/webhooks', body, auditor.token)).status).toBe(403);
    const token = await api.post('/api/tokens', { name: 'ops', scope: 'write' }, admin.token);
    const refused = await api.post('/api/webhooks', body, token.body.secret);
    expect(refused.status).toBe(403);
    const made = await api.post('/api/webhooks', body, admin.token);
    expect(made.status).toBe(201);
    expect(made.body.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(JSON.stringify((await api.get('/api/webhooks', admin.token)).body)).not.toContain(made.body.secret);
  });
});

describe('outgoing webhooks: a name that resolves to a private address at delivery time', () => {
  it('is refused on connect, after DNS (the product lookup stubbed; /etc/hosts untouched)', async () => {
    const hook = await startWebhookReceiver();
    // No WEBHOOK_ALLOW_HOSTS here: the receiver's 127.0.0.1 is not public.
    const t = await startTestSystem({
      webhookLookup: async (host) => {
        if (host === 'hooks.example.test') return [{ address: '127.0.0.1', family: 4 }];
        throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
      },
    });
    try {
      const api = http(t.url);
      const admin = await registerUser(t.url, 'admin');
      // On save the name does not resolve here (this machine has no DNS for it): it is judged on connect.
      const made = await api.post(
        '/api/webhooks',
        { url: `http://hooks.example.test:${hook.port}/hook`, events: ['*'] },
        admin.token,
      );
      expect(made.status, JSON.stringify(made.body)).toBe(201);
      expect((await api.post(`/api/webhooks/${made.body.webhook._id}/ping`, {}, admin.token)).status).toBe(202);
      const log = await eventually(async () => {
        const { body } = await api.get(`/api/webhooks/${made.body.webhook._id}/deliveries`, admin.token);
        return body.deliveries[0] ?? null;
      });
      expect(log).toMatchObject({ type: 'ping', status: null });
      expect(log.error).toContain('127.0.0.1, which is not a public address');
      expect(hook.received).toEqual([]);
    } finally {
      await t.close();
      await hook.close();
    }
  });
});
