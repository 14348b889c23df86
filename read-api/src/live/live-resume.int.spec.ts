import { registerUser, SseReader, type TestUser } from '@bugtrail/testing';
import { startTestSystem, type TestSystem } from '@bugtrail/testing/system';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

/**
 * Resume and failure cases. The projector and write-api run in one system, read-api in
 * another on the same database, as in compose: read-api hears of changes only through
 * its own LISTEN connection, and can be restarted on its own.
 */
describe('live updates across disconnects, restarts and a lost LISTEN connection', () => {
  let writer: TestSystem;
  let reader: TestSystem;
  let admin: TestUser;
  const readers: SseReader[] = [];
  const open = async (url: string, lastEventId: string | null = null) => {
    const r = await SseReader.open(url, admin.token, lastEventId);
    readers.push(r);
    return r;
  };
  /** Registers users through write-api; resolves once the read models have them. */
  const register = (n: number) => Promise.all(Array.from({ length: n }, () => registerUser(writer.url, 'developer')));
  const topicsAfter = async (position: string, upTo: string) => {
    const { rows } = await writer.system.pool.query<{ topics: string[] }>(
      'select topics from projector.changes where position > $1 and position <= $2 order by position',
      [position, upTo],
    );
    return rows.flatMap((r) => r.topics.map((topic) => topic.split('|')[0]!));
  };

  beforeAll(async () => {
    writer = await startTestSystem({ parts: ['write-api', 'projector'] });
    reader = await startTestSystem({ parts: ['read-api'], databaseUrl: writer.databaseUrl });
    admin = await registerUser(writer.url, 'admin');
  });
  afterEach(() => {
    for (const r of readers.splice(0)) r.close();
  });
  afterAll(async () => {
    await reader?.close();
    await writer?.close();
  });

  it('resumes a dropped connection with Last-Event-ID: exactly the missed topics, then live ones, once each', async () => {
    const first = await open(reader.url);
    const [seen] = await register(1);
    await first.waitFor((m) => m.topics.includes(`user:${seen!.id}`));
    const lastEventId = first.lastEventId!;
    first.close();

    const missed = await register(3);
    const resumed = await open(reader.url, lastEventId);
    const ready = resumed.messages.find((m) => m.event === 'ready')!;
    const replayed = resumed.messages.filter((m) => m.event !== 'ready');
    expect(replayed.flatMap((m) => m.topics)).toEqual(await topicsAfter(lastEventId, ready.position));
    for (const user of missed) {
      expect(replayed.flatMap((m) => m.topics).filter((topic) => topic === `user:${user.id}`)).toHaveLength(1);
    }
    expect(replayed.flatMap((m) => m.topics)).not.toContain(`user:${seen!.id}`);
    expect(replayed.every((m) => m.position > lastEventId && m.position <= ready.position)).toBe(true);

    const [later] = await register(1);
    await resumed.waitFor((m) => m.topics.includes(`user:${later!.id}`));
    const all = resumed.topics();
    expect(new Set(all.filter((topic) => topic.startsWith('user:'))).size).toBe(
      all.filter((topic) => topic.startsWith('user:')).length,
    );
    // Ids only grow: a later reconnect can never skip or repeat.
    const ids = resumed.messages.flatMap((m) => (m.id ? [m.id] : []));
    expect([...ids].sort()).toEqual(ids);
  });

  it('asks a client whose position is no longer kept to reset', async () => {
    // A position before every kept row: the rows after it may have been trimmed.
    const stale = await open(reader.url, '0'.repeat(31) + '1');
    expect(stale.messages.map((m) => m.event)).toEqual(['reset', 'ready']);
    const reset = stale.messages[0]!;
    expect(reset.id).toBe(stale.messages[1]!.id);
    const [next] = await register(1);
    await stale.waitFor((m) => m.topics.includes(`user:${next!.id}`));
  });

  it('loses nothing when the LISTEN connection drops', async () => {
    const live = await open(reader.url);
    // Kill every connection listening for changes (read-api's and write-api's): until
    // they reconnect, no NOTIFY reaches them, and the changes made meanwhile must still arrive.
    const { rows } = await writer.system.pool.query<{ killed: boolean }>(
      `select pg_terminate_backend(pid) as killed from pg_stat_activity
       where datname = current_database() and query ilike 'listen bugtrail_%'`,
    );
    expect(rows.length).toBeGreaterThanOrEqual(2);
    const during = await register(3);
    // Well under the 15 s heartbeat, whose safety-net read would hide a missing catch-up.
    for (const user of during) await live.waitFor((m) => m.topics.includes(`user:${user.id}`), 10_000);
    const [after] = await register(1);
    await live.waitFor((m) => m.topics.includes(`user:${after!.id}`));
    const userTopics = live.topics().filter((topic) => topic.startsWith('user:'));
    expect(new Set(userTopics).size).toBe(userTopics.length);
  });

  it('loses nothing across a read-api restart: the client resumes on the new instance', async () => {
    const before = await open(reader.url);
    const [seen] = await register(1);
    await before.waitFor((m) => m.topics.includes(`user:${seen!.id}`));
    const lastEventId = before.lastEventId!;

    await reader.close();
    await before.waitForEnd();
    const whileDown = await register(2);
    reader = await startTestSystem({ parts: ['read-api'], databaseUrl: writer.databaseUrl });

    const after = await open(reader.url, lastEventId);
    for (const user of whileDown) {
      expect(after.messages.filter((m) => m.topics.includes(`user:${user.id}`))).toHaveLength(1);
    }
    expect(after.topics()).not.toContain(`user:${seen!.id}`);
    const [next] = await register(1);
    await after.waitFor((m) => m.topics.includes(`user:${next!.id}`));
  });
});
