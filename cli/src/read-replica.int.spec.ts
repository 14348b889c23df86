import { http, registerUser, SseReader, type TestUser } from '@bugtrail/testing';
import { findPostgresBinaries, type ReplicatedPostgres, startReplicatedPostgres } from '@bugtrail/testing/standby';
import { startTestSystem, type TestSystem } from '@bugtrail/testing/system';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * read-api on a real streaming hot standby (READ_DATABASE_URL, ADR 022): a PostgreSQL
 * primary and its standby made with pg_basebackup, each a server of its own.
 */
const binaries = findPostgresBinaries();
const describeWithBinaries = binaries ? describe : describe.skip;

describeWithBinaries('read-api on a hot standby', () => {
  let servers: ReplicatedPostgres;
  let t: TestSystem;
  let tester: TestUser;
  let developer: TestUser;
  let standbyUrl: string;

  /** read-api's connections on the standby right now. */
  const readersOnStandby = async () => {
    const client = new pg.Client({ connectionString: standbyUrl });
    await client.connect();
    try {
      const { rows } = await client.query<{ n: number }>(
        "select count(*)::int as n from pg_stat_activity where application_name = 'bugtrail-read'",
      );
      return rows[0]!.n;
    } finally {
      await client.end();
    }
  };
  const report = (title: string) =>
    http(t.url).post(
      '/api/bugs',
      {
        title,
        description: `${title}, every time`,
        priority: 'High',
        severity: 'Major',
        dueDate: null,
        assignedTo: [developer.id],
      },
      tester.token,
    );

  beforeAll(async () => {
    servers = await startReplicatedPostgres();
    const urls = await servers.createDatabase('bugtrail');
    standbyUrl = urls.standby;
    // A standby that stays behind this long leaves the read to the primary.
    t = await startTestSystem({
      databaseUrl: urls.primary,
      config: { readDatabaseUrl: urls.standby, readYourWritesTimeoutMs: 3000 },
    });
    tester = await registerUser(t.url, 'tester');
    developer = await registerUser(t.url, 'developer');
  }, 180_000);
  afterAll(async () => {
    await t?.close();
    await servers?.stop();
  });

  it('reads back every report at once, 1,000 times, without a position from the client', async () => {
    const api = http(t.url);
    let missed = 0;
    for (let i = 0; i < 1000; i++) {
      const created = await report(`Replica read ${i}`);
      expect(created.status).toBe(201);
      const read = await api.get(`/api/bugs/${created.body.bug._id}`, tester.token);
      if (read.status !== 200 || read.headers.get('x-read-model-lag')) missed += 1;
    }
    expect(missed).toBe(0);
    // The reads were the standby's.
    expect(await readersOnStandby()).toBeGreaterThan(0);
  }, 300_000);

  it('tells live clients of a change only once the standby has it', async () => {
    const live = await SseReader.open(t.url, tester.token);
    try {
      const created = await report('Seen live, then read');
      const id: string = created.body.bug._id;
      const message = await live.waitFor((m) => m.topics.some((topic) => topic.includes(id)));
      const standby = new pg.Client({ connectionString: standbyUrl });
      await standby.connect();
      try {
        const { rows } = await standby.query('select min(position) as position from projector.checkpoints');
        expect(rows[0].position >= message.position).toBe(true);
      } finally {
        await standby.end();
      }
    } finally {
      live.close();
    }
  });

  it('keeps answering from the primary while the standby is down, and goes back to it', async () => {
    await servers.stopStandby();
    try {
      for (let i = 0; i < 20; i++) {
        const created = await report(`While the standby is down ${i}`);
        expect(created.status).toBe(201);
        const read = await http(t.url).get(`/api/bugs/${created.body.bug._id}`, tester.token);
        expect(read.status, JSON.stringify(read.body)).toBe(200);
      }
    } finally {
      await servers.startStandby();
    }
    // After the retry interval, reads are the standby's again: waits for that (the test's
    // timeout ends a wait that never comes), not for a fixed 20 s a busy machine may exceed.
    let back = 0;
    while (back === 0) {
      await http(t.url).get('/api/bugs?limit=5', tester.token);
      back = await readersOnStandby();
      if (back === 0) await new Promise((resolve) => setTimeout(resolve, 250));
    }
    expect(back).toBeGreaterThan(0);
  }, 120_000);

  it('does not take a standby that comes back behind for caught up: the primary answers', async () => {
    const api = http(t.url);
    let id: string;
    await servers.stopStandby();
    try {
      // Written and read while the standby is down: the primary answers both.
      const created = await report('Written while the standby is down');
      expect(created.status).toBe(201);
      id = created.body.bug._id;
      expect((await api.get(`/api/bugs/${id}`, tester.token)).status).toBe(200);
    } finally {
      // Back, without streaming: it serves what it had when it stopped, and never this report.
      await servers.startStandby({ streaming: false });
    }
    try {
      const standby = new pg.Client({ connectionString: standbyUrl });
      await standby.connect();
      try {
        const { rows } = await standby.query('select 1 from rm.bugs where id = $1', [id]);
        expect(rows).toHaveLength(0);
      } finally {
        await standby.end();
      }
      // Past the 3 s the standby is left alone after it failed: reads would be its own again.
      await new Promise((resolve) => setTimeout(resolve, 3500));
      for (let i = 0; i < 3; i++) {
        const read = await api.get(`/api/bugs/${id}`, tester.token);
        expect(read.status, JSON.stringify(read.body)).toBe(200);
        expect(read.headers.get('x-read-model-lag')).toBeNull();
      }
      expect(await readersOnStandby()).toBeGreaterThan(0);
    } finally {
      await servers.stopStandby();
      await servers.startStandby();
    }
  }, 120_000);
});
