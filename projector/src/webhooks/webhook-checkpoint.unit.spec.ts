import type { CommandHandler, Position, RecordedEvent } from '@bugtrail/eventstore';
import { silentLogger } from '@bugtrail/platform';
import type pg from 'pg';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { WebhookReactor } from './webhook-reactor.js';

/** A pool that answers every statement with no rows and keeps its text. */
function recordingPool(subscriptions: { id: string; events: string[]; created_at: Date }[] = []) {
  const statements: string[] = [];
  const pool = {
    async query(text: string) {
      statements.push(text);
      return { rows: text.includes('from webhooks.subscriptions') ? subscriptions : [] };
    },
  };
  return { pool: pool as unknown as pg.Pool, statements };
}

let position = 0;
function reported(recordedAt = new Date()): RecordedEvent {
  position += 1;
  const bugId = crypto.randomUUID();
  const reporterId = crypto.randomUUID();
  return {
    id: crypto.randomUUID(),
    streamId: `bug-${bugId}`,
    revision: 0,
    type: 'BugReported',
    data: {
      bugId,
      title: 'A bug',
      description: 'Reported by the checkpoint test.',
      priority: 'High',
      severity: 'Major',
      status: 'Open',
      module: null,
      dueDate: null,
      reporterId,
    },
    metadata: {
      actorId: reporterId,
      correlationId: bugId,
      causationId: null,
      occurredAt: recordedAt.toISOString(),
      schemaVersion: 1,
    },
    position: String(position).padStart(20, '0') as Position,
    recordedAt,
    hash: '',
  } as unknown as RecordedEvent;
}

const reactor = (pool: pg.Pool) =>
  new WebhookReactor({ store: {} } as unknown as CommandHandler, pool, {
    logger: silentLogger,
    config: { allowHosts: [], retryBaseMs: 1000, disableAfter: 5 },
  });

const checkpoints = (statements: string[]) => statements.filter((s) => s.includes('insert into projector.reactors'));

/**
 * The webhook reactor moves its checkpoint with every batch that queues a message, but keeps
 * the position of batches that queue nothing at most every 5 s: reading them again after a
 * crash queues nothing either (a webhook hears only events recorded after it existed).
 */
describe('the webhook reactor checkpoint', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('is kept at most every 5 s while batches queue nothing', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const { pool, statements } = recordingPool();
    const r = reactor(pool);
    expect(await r.queue([reported()])).toBe(0);
    expect(checkpoints(statements)).toHaveLength(1);
    vi.advanceTimersByTime(4000);
    expect(await r.queue([reported()])).toBe(0);
    expect(await r.queue([reported()])).toBe(0);
    expect(checkpoints(statements)).toHaveLength(1);
    vi.advanceTimersByTime(1000);
    expect(await r.queue([reported()])).toBe(0);
    expect(checkpoints(statements)).toHaveLength(2);
  });

  it('moves with every batch that queues a message, in the statement that queues it', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const created = new Date(Date.now() - 1000);
    const { pool, statements } = recordingPool([{ id: crypto.randomUUID(), events: ['*'], created_at: created }]);
    const r = reactor(pool);
    expect(await r.queue([reported()])).toBe(1);
    expect(await r.queue([reported()])).toBe(1);
    const moves = checkpoints(statements);
    expect(moves).toHaveLength(2);
    for (const statement of moves) expect(statement).toContain('insert into webhooks.outbox');
  });

  it('queues nothing when an event is older than every webhook, as a replay of it finds', async () => {
    const { pool, statements } = recordingPool([{ id: crypto.randomUUID(), events: ['*'], created_at: new Date() }]);
    const r = reactor(pool);
    expect(await r.queue([reported(new Date(Date.now() - 60_000))])).toBe(0);
    expect(statements.some((s) => s.includes('insert into webhooks.outbox'))).toBe(false);
  });
});
