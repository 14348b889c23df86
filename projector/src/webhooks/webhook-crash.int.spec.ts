import { adminUrl, createTestDatabase, eventually, http, registerUser } from '@bugtrail/testing';
import { type ProductProcess, startProductProcess } from '@bugtrail/testing/process';
import { startWebhookReceiver } from '@bugtrail/testing/webhooks';
import { afterAll, describe, expect, it } from 'vitest';

/**
 * A delivery survives the death of the process sending it (api.md "Integrations": at least
 * once, never lost by a crash mid-delivery or a second process): two real `bugtrail start`
 * processes on one database; the receiver holds the first message without answering; the
 * leader is SIGKILLed meanwhile; the standby takes the lead and sends it again, with the same
 * webhook-id, and it is acknowledged once. Nothing else is sent twice.
 */
describe('webhook delivery across a crash mid-delivery', () => {
  const cleanUp: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const step of cleanUp.reverse()) await step().catch(() => {});
  });

  it('arrives again after the sender is SIGKILLed while the receiver holds it, and is acknowledged exactly once', async () => {
    const receiver = await startWebhookReceiver({ answer: (_, n) => (n === 0 ? 'hang' : 200) });
    cleanUp.push(() => receiver.close());
    const database = await createTestDatabase();
    cleanUp.push(() => database.drop());
    const env = { WEBHOOK_ALLOW_HOSTS: '127.0.0.1' };
    const start = () => startProductProcess({ adminDatabaseUrl: adminUrl(), databaseUrl: database.url, env });
    const leader: ProductProcess = await start();
    cleanUp.push(() => leader.stop());

    const api = http(leader.url);
    const admin = await registerUser(leader.url, 'admin', 'Ada Admin');
    const tester = await registerUser(leader.url, 'tester', 'Tess Tester');
    const developer = await registerUser(leader.url, 'developer', 'Dan Dev');
    const made = await api.post('/api/webhooks', { url: `${receiver.url}/hook`, events: ['*'] }, admin.token);
    expect(made.status).toBe(201);
    receiver.useSecret(made.body.secret);
    const report = await api.post(
      '/api/bugs',
      {
        title: 'Reported while the sender dies',
        description: 'The webhook must still arrive, once',
        priority: 'High',
        severity: 'Major',
        assignedTo: [developer.id],
      },
      tester.token,
    );
    expect(report.status).toBe(201);
    // The first message is in the receiver's hands, unanswered.
    await eventually(async () => (receiver.received.length === 1 ? true : null));
    const held = receiver.received[0]!.id;

    const standby = await start();
    cleanUp.push(() => standby.stop());
    await leader.kill();

    await eventually(async () => (receiver.received.filter((m) => m.status === 200).length >= 2 ? true : null), 300);
    const acknowledged = receiver.received.filter((m) => m.status === 200);
    const byId = new Map<string, number>();
    for (const m of acknowledged) byId.set(m.id, (byId.get(m.id) ?? 0) + 1);
    // The held message came again with its id and was acknowledged once; every message verifies.
    expect(receiver.received.filter((m) => m.id === held)).toHaveLength(2);
    expect(byId.get(held)).toBe(1);
    expect([...byId.values()].every((n) => n === 1)).toBe(true);
    expect(receiver.received.every((m) => m.verified !== null)).toBe(true);
    expect(acknowledged.map((m) => m.verified?.type)).toEqual(['bug.reported', 'bug.assigned']);
  }, 120_000);
});
