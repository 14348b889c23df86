import type { Actor } from '@bugtrail/domain';
import { type ChangeFeed, type ChangeNotice, silentLogger } from '@bugtrail/platform';
import { createSseParser } from '@bugtrail/testing';
import type pg from 'pg';
import { describe, expect, it } from 'vitest';
import { LiveHub, type LiveSink } from './live-hub.js';
import { registerDefaultTopicFilters, TopicFilterRegistry } from './topic-filters.js';

const pos = (n: number) => n.toString(16).padStart(32, '0');

/** projector.changes and checkpoints in memory, answering the hub's three queries. */
class FakeDatabase {
  rows: { position: string; topics: string[] }[] = [];
  head = pos(0);
  /** When set, a read of rows waits for it: lets a test act in the middle of a replay. */
  gate: Promise<void> | null = null;
  readonly pool = {
    query: async (text: string, params: unknown[] = []) => {
      if (text.includes('max(position) as position from projector.changes')) {
        return { rows: [{ position: this.rows.at(-1)?.position ?? null }] };
      }
      if (text.includes('as oldest')) {
        return { rows: [{ oldest: this.rows[0]?.position ?? null, head: this.head }] };
      }
      const [after, limit] = params as [string, number];
      const gate = this.gate;
      const found = this.rows.filter((r) => r.position > after).slice(0, limit);
      if (gate) await gate;
      return { rows: found };
    },
  } as unknown as pg.Pool;

  add(n: number, topics: string[]) {
    this.rows.push({ position: pos(n), topics });
    this.head = pos(n);
  }
}

class FakeFeed {
  private readonly listeners = new Set<(notice: ChangeNotice) => void>();
  onChange(listener: (notice: ChangeNotice) => void) {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
  onSignal() {
    return () => {};
  }
  ring(n: number) {
    for (const l of this.listeners) l({ position: pos(n), topics: [] });
  }
}

type Message = { event?: string; id?: string; topics: string[]; position: string };

class RecordingSink implements LiveSink {
  readonly messages: Message[] = [];
  ended: 'graceful' | 'cut' | null = null;
  isStalled = false;
  private waiters: (() => void)[] = [];
  private readonly feed = createSseParser((m) => {
    this.messages.push({
      ...(m.event ? { event: m.event } : {}),
      ...(m.id ? { id: m.id } : {}),
      ...JSON.parse(m.data),
    });
    for (const w of this.waiters.splice(0)) w();
  });
  private unsent = 0;
  private readonly decoder = new TextDecoder();
  write(bytes: Uint8Array) {
    if (this.isStalled) return (this.unsent += bytes.byteLength);
    this.feed(this.decoder.decode(bytes));
    return 0;
  }
  drained() {
    return this.isStalled ? new Promise<void>(() => {}) : Promise.resolve();
  }
  end(mode: 'graceful' | 'cut') {
    this.ended = mode;
    for (const w of this.waiters.splice(0)) w();
  }
  async until(match: () => boolean, timeoutMs = 10_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!match() && Date.now() < deadline) {
      await new Promise<void>((resolve) => {
        this.waiters.push(resolve);
        setTimeout(resolve, 50);
      });
    }
    if (!match()) throw new Error(`condition never met; got ${JSON.stringify(this.messages)}`);
  }
  topics() {
    return this.messages.flatMap((m) => m.topics);
  }
}

const admin: Actor = { id: 'a1', role: 'admin' };
const developer: Actor = { id: 'd1', role: 'developer' };

async function setup(options: ConstructorParameters<typeof LiveHub>[3] = {}) {
  const db = new FakeDatabase();
  const feed = new FakeFeed();
  const hub = new LiveHub(db.pool, feed as unknown as ChangeFeed, silentLogger, options);
  return { db, feed, hub };
}

describe('LiveHub', () => {
  it('starts a new subscriber at the end of the table and sends what comes after, filtered', async () => {
    const { db, feed, hub } = await setup();
    db.add(1, ['bug:b0|t1', 'bugs']);
    await hub.start();
    const a = new RecordingSink();
    const d = new RecordingSink();
    hub.subscribe(admin, a, { lastEventId: null });
    hub.subscribe(developer, d, { lastEventId: null });
    expect(a.messages).toEqual([{ event: 'ready', id: pos(1), topics: [], position: pos(1) }]);

    db.add(2, ['bug:b1|t1,d1', 'bugs']);
    db.add(3, ['bug:b2|t1', 'bugs', 'user:u1', 'users']);
    feed.ring(3);
    await a.until(() => a.messages.length === 7);
    await d.until(() => d.messages.some((m) => m.position === pos(3)));
    expect(a.messages.slice(1)).toEqual([
      { event: 'bug', topics: ['bug:b1'], position: pos(2) },
      { event: 'bugs', id: pos(2), topics: ['bugs'], position: pos(2) },
      { event: 'bug', topics: ['bug:b2'], position: pos(3) },
      { event: 'bugs', topics: ['bugs'], position: pos(3) },
      { event: 'user', topics: ['user:u1'], position: pos(3) },
      { event: 'users', id: pos(3), topics: ['users'], position: pos(3) },
    ]);
    expect(d.topics()).toEqual(['bug:b1', 'user:u1', 'users']);
  });

  it('reads a row once however many notices announce it', async () => {
    const { db, feed, hub } = await setup();
    await hub.start();
    const a = new RecordingSink();
    hub.subscribe(admin, a, { lastEventId: null });
    db.add(1, ['users']);
    feed.ring(1);
    feed.ring(1);
    db.add(2, ['user:u2']);
    feed.ring(2);
    feed.ring(2);
    await a.until(() => a.topics().includes('user:u2'));
    expect(a.topics()).toEqual(['users', 'user:u2']);
  });

  it('replays what a resuming subscriber missed, then hands over to live rows without a gap or a duplicate', async () => {
    const { db, feed, hub } = await setup({ pageSize: 2 });
    for (let n = 1; n <= 5; n++) db.add(n, [`user:u${n}`]);
    await hub.start();
    const a = new RecordingSink();
    // Rows 6 and 7 commit while the backlog is being read: the hub hears of them
    // and offers them before the replay reaches its end.
    let open!: () => void;
    db.gate = new Promise<void>((resolve) => {
      open = resolve;
    });
    hub.subscribe(admin, a, { lastEventId: pos(2) });
    db.add(6, ['user:u6']);
    db.add(7, ['user:u7']);
    feed.ring(7);
    await new Promise((r) => setTimeout(r, 0));
    db.gate = null;
    open();
    await a.until(() => a.topics().includes('user:u7'));
    db.add(8, ['user:u8']);
    feed.ring(8);
    await a.until(() => a.topics().includes('user:u8'));
    expect(a.topics()).toEqual(['user:u3', 'user:u4', 'user:u5', 'user:u6', 'user:u7', 'user:u8']);
    const ready = a.messages.find((m) => m.event === 'ready')!;
    const ids = a.messages.flatMap((m) => (m.id ? [m.id] : []));
    expect([...ids].sort()).toEqual(ids);
    expect(ready.position >= pos(5)).toBe(true);
  });

  it('asks for a reset when the gap reaches past the oldest kept row, or the id is not a position of this history', async () => {
    const { db, hub } = await setup();
    db.add(10, ['users']);
    db.add(11, ['users']);
    await hub.start();
    for (const lastEventId of [pos(9), pos(12), 'garbage']) {
      const a = new RecordingSink();
      hub.subscribe(admin, a, { lastEventId });
      await a.until(() => a.messages.some((m) => m.event === 'ready'));
      expect(a.messages.map((m) => m.event)).toEqual(['reset', 'ready']);
      expect(a.messages[0]).toEqual({ event: 'reset', id: pos(11), topics: [], position: pos(11) });
    }
    const exact = new RecordingSink();
    hub.subscribe(admin, exact, { lastEventId: pos(10) });
    await exact.until(() => exact.messages.some((m) => m.event === 'ready'));
    expect(exact.messages.map((m) => m.event)).toEqual(['users', 'ready']);
  });

  it('cuts a subscriber that cannot keep up, without holding back the others', async () => {
    const { db, feed, hub } = await setup({ maxQueuedBytes: 2000 });
    await hub.start();
    const slow = new RecordingSink();
    const fast = new RecordingSink();
    let closed = 0;
    hub.subscribe(admin, slow, { lastEventId: null, onClose: () => closed++ });
    hub.subscribe(admin, fast, { lastEventId: null });
    slow.isStalled = true;
    for (let n = 1; n <= 100; n++) {
      db.add(n, [`user:u${n}`]);
      feed.ring(n);
      await new Promise((r) => setTimeout(r, 0));
    }
    await fast.until(() => fast.topics().includes('user:u100'));
    expect(fast.topics()).toHaveLength(100);
    expect(slow.ended).toBe('cut');
    expect(closed).toBe(1);
    expect(hub.subscriberCount).toBe(1);
  });

  it('ends the stream of a subscriber whose token stopped being valid', async () => {
    const { hub } = await setup({ heartbeatMs: 10 });
    await hub.start();
    const revoked = new RecordingSink();
    const valid = new RecordingSink();
    hub.subscribe(admin, revoked, { lastEventId: null, isStillAuthorized: async () => false });
    hub.subscribe(developer, valid, { lastEventId: null, isStillAuthorized: async () => true });
    await revoked.until(() => revoked.ended !== null);
    expect(revoked.ended).toBe('graceful');
    expect(valid.ended).toBeNull();
    hub.close();
    expect(valid.ended).toBe('graceful');
  });

  it('holds every stream while a change to who sees what is asked again: ends the ones that lost rights, resumes the rest', async () => {
    const filters = new TopicFilterRegistry();
    registerDefaultTopicFilters(filters);
    filters.register('project', () => true);
    filters.registerRightsChange('project', (topic) => !topic.isPublic);
    const { db, feed, hub } = await setup({ filters, heartbeatMs: 60_000 });
    await hub.start();
    const left = new RecordingSink();
    const stayed = new RecordingSink();
    let answer!: (isAuthorized: boolean) => void;
    const rounds: (string | undefined)[] = [];
    const member: Actor = { id: 'd1', role: 'developer', hiddenProjects: [] };
    hub.subscribe(member, left, {
      lastEventId: null,
      isStillAuthorized: (round) => {
        rounds.push(round);
        return new Promise<boolean>((resolve) => {
          answer = resolve;
        });
      },
    });
    hub.subscribe(admin, stayed, { lastEventId: null, isStillAuthorized: async () => true });
    await left.until(() => left.messages.some((m) => m.event === 'ready'));
    // The member is removed from a private project; the next row is about one of its bugs.
    db.add(1, ['project:p1|d1']);
    db.add(2, ['bug:b1|t1,d1|p1']);
    feed.ring(2);
    await stayed.until(() => stayed.topics().includes('bug:b1'));
    expect(rounds).toEqual([pos(1)]);
    // Nothing after the change reaches the held stream while its rights are being asked.
    expect(left.topics()).toEqual(['project:p1']);
    answer(false);
    await left.until(() => left.ended !== null);
    expect(left.ended).toBe('graceful');
    expect(left.topics()).toEqual(['project:p1']);

    // A public project's change asks nobody; a stream whose rights hold gets what it missed meanwhile.
    const kept = new RecordingSink();
    hub.subscribe(member, kept, { lastEventId: null, isStillAuthorized: async () => true });
    await kept.until(() => kept.messages.some((m) => m.event === 'ready'));
    db.add(3, ['project:p2|*']);
    db.add(4, ['project:p1|d1']);
    db.add(5, ['bug:b1|t1,d1|p1']);
    feed.ring(5);
    await kept.until(() => kept.topics().includes('bug:b1'));
    expect(kept.topics()).toEqual(['project:p2', 'project:p1', 'bug:b1']);
    expect(kept.ended).toBeNull();
  });

  it('asks a resuming stream’s rights once live when a change to who sees what was in its replay', async () => {
    const filters = new TopicFilterRegistry();
    registerDefaultTopicFilters(filters);
    filters.register('project', () => true);
    filters.registerRightsChange('project', () => true);
    const { db, hub } = await setup({ filters, heartbeatMs: 60_000 });
    db.add(1, ['users']);
    db.add(2, ['project:p1|d1']);
    await hub.start();
    const rounds: (string | undefined)[] = [];
    const resumed = new RecordingSink();
    hub.subscribe({ id: 'd1', role: 'developer', hiddenProjects: [] }, resumed, {
      lastEventId: pos(1),
      isStillAuthorized: async (round) => {
        rounds.push(round);
        return false;
      },
    });
    await resumed.until(() => resumed.ended !== null);
    expect(rounds).toEqual([pos(2)]);
    expect(resumed.topics()).toEqual(['project:p1']);
  });

  it('limits connections per user and gives a slot back once', async () => {
    const { hub } = await setup();
    const first = hub.reserve('u1', 2);
    const second = hub.reserve('u1', 2);
    expect(first && second).toBeTruthy();
    expect(hub.reserve('u1', 2)).toBeNull();
    expect(hub.reserve('u2', 2)).not.toBeNull();
    first!();
    first!();
    expect(hub.reserve('u1', 2)).not.toBeNull();
    expect(hub.reserve('u1', 2)).toBeNull();
  });
});
