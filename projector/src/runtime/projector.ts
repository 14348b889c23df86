import { comparePositions, type EventStore, type Position, type RecordedEvent, START } from '@bugtrail/eventstore';
import {
  CHANGES_CHANNEL,
  type ChangeFeed,
  type ChangeNotice,
  encodeChangeNotice,
  type Logger,
} from '@bugtrail/platform';
import { type Kysely, sql, type Transaction } from 'kysely';
import type pg from 'pg';
import type { ReadModelDb } from '../schema.js';
import { type BulkWriter, copyWriter, kyselyOnClient } from './copy.js';
import { LeaderLoop } from './leader-loop.js';
import type { ProjectorTables } from './migrations.js';
import { createPipelinedDb } from './pipelined-dialect.js';
import { type Projection, READ_MODEL_SCHEMA } from './projection.js';

const LEADER_LOCK = 7310002;
/** NOTIFY payloads must stay under 8000 bytes. */
const MAX_NOTICE_BYTES = 7000;
/** How many recent change rows are kept for live-update resume. */
const CHANGES_KEPT = 20_000;

export type ProjectorOptions = {
  batchSize?: number;
  logger: Logger;
  /** In-process consumers (read-your-writes, SSE) hear of batches without a round trip. */
  changeFeed?: ChangeFeed;
  /**
   * Views over the read-model tables (the analytics schema): installed once every projection
   * exists, and again inside each rebuild's swap, which drops the tables they read.
   */
  views?: (db: Kysely<ReadModelDb>) => Promise<void>;
};

export type ProjectorStatus = Readonly<{
  role: 'leader' | 'standby' | 'stopped';
  position: Position;
  eventsBehind: number;
  eventsBehindCapped: boolean;
  secondsBehind: number;
}>;

/** A rebuild batch's transaction and the COPY writer on the same connection. */
type BatchWriter = { tx: Transaction<ReadModelDb>; copy: BulkWriter };

type CheckpointRow = Pick<ProjectorTables['projector.checkpoints'], 'name' | 'position' | 'version'>;

/** Splits topics into NOTIFY-sized notices that all carry the batch position. */
export function chunkNotices(position: Position, topics: readonly string[], reset = false): ChangeNotice[] {
  const notices: ChangeNotice[] = [];
  let current: string[] = [];
  let size = 0;
  for (const topic of topics) {
    if (size + topic.length + 3 > MAX_NOTICE_BYTES && current.length > 0) {
      notices.push({ position, topics: current });
      current = [];
      size = 0;
    }
    current.push(topic);
    size += topic.length + 3;
  }
  notices.push({ position, topics: current, ...(reset ? { reset } : {}) });
  return notices;
}

/**
 * Follows the event store and keeps every projection's tables current. Each batch
 * writes rows and checkpoints in one transaction, then NOTIFYs (delivered on
 * commit). One leader per database, elected with an advisory lock; a standby waits.
 */
/** How many events applied make a bulk worth new statistics (autovacuum's own default is 10% of a table). */
const ANALYZE_AFTER_EVENTS = 10_000;

export class Projector {
  private readonly batchSize: number;
  private readonly logger: Logger;
  private readonly leader: LeaderLoop;
  private subscription: { close(): Promise<void> } | null = null;
  private position: Position = START;
  /** Events applied since the read models' statistics were last taken (see `analyzeAfterBulk`). */
  private appliedSinceAnalyze = 0;
  /** The same connection pool, seeing the projector's own tables too. */
  private readonly runtimeDb: Kysely<ReadModelDb & ProjectorTables>;
  /** The same pool again, for batch transactions: writes travel together with the next read. */
  private readonly batchDb: Kysely<ReadModelDb>;

  constructor(
    private readonly store: EventStore,
    private readonly pool: pg.Pool,
    private readonly db: Kysely<ReadModelDb>,
    readonly projections: readonly Projection[],
    private readonly options: ProjectorOptions,
  ) {
    this.runtimeDb = db.withTables<ProjectorTables>();
    this.batchDb = createPipelinedDb<ReadModelDb>(pool);
    this.batchSize = options.batchSize ?? 1000;
    this.logger = options.logger;
    this.leader = new LeaderLoop(
      pool,
      LEADER_LOCK,
      'projector',
      options.logger,
      () => this.follow(),
      () => {
        void this.subscription?.close();
      },
    );
    const names = new Set(projections.map((p) => p.name));
    if (names.size !== projections.length) throw new Error('projection names must be unique');
  }

  /**
   * Creates missing projections' tables and rebuilds those whose version changed.
   * Safe to call from several processes: it runs under the leader lock's sibling.
   */
  async prepare(): Promise<void> {
    const client = await this.pool.connect();
    try {
      await client.query('select pg_advisory_lock($1)', [LEADER_LOCK + 1]);
      const existing = new Map((await this.readCheckpoints()).map((r) => [r.name, r]));
      // New projections' tables first: a rebuild below reinstalls the analytics views, which may read them.
      for (const projection of this.projections) {
        if (existing.has(projection.name)) continue;
        await this.db.transaction().execute(async (tx) => {
          await projection.createTables(tx, READ_MODEL_SCHEMA);
          await projection.createIndexes?.(tx, READ_MODEL_SCHEMA);
          await tx
            .withTables<ProjectorTables>()
            .insertInto('projector.checkpoints')
            .values({ name: projection.name, position: START, version: projection.version })
            .execute();
        });
        this.logger.info('projection created', { projection: projection.name, version: projection.version });
      }
      for (const projection of this.projections) {
        const row = existing.get(projection.name);
        if (row && row.version !== projection.version) {
          this.logger.info('projection version changed; rebuilding', {
            projection: projection.name,
            from: row.version,
            to: projection.version,
          });
          await this.rebuild(projection.name);
        }
      }
      await this.options.views?.(this.db);
    } finally {
      await client.query('select pg_advisory_unlock($1)', [LEADER_LOCK + 1]).catch(() => {});
      client.release();
    }
  }

  /** Starts following: as leader when the lock is free, else as a standby that retries. */
  start(): void {
    this.leader.start();
  }

  private async follow(): Promise<void> {
    const from = await this.slowestCheckpoint();
    this.position = from;
    // stop() may have run while we awaited: it found no subscription to close.
    if (!this.leader.isRunning) return;
    const subscription = this.store.subscribe(from, { batchSize: this.batchSize });
    this.subscription = subscription;
    try {
      for await (const batch of subscription) {
        if (!this.leader.isLeading) break;
        await this.applyBatch(batch);
        this.appliedSinceAnalyze += batch.length;
        if (this.appliedSinceAnalyze >= ANALYZE_AFTER_EVENTS && (await this.caughtUpWith(batch))) await this.analyze();
      }
    } finally {
      await subscription.close();
      this.subscription = null;
    }
  }

  /**
   * Caught up: a batch short of full, or a full one that ends at the head. The second matters
   * because the store hands out only what lies below every open transaction of the server, so
   * a bulk's last batch can come full and nothing follow it.
   */
  private async caughtUpWith(batch: readonly RecordedEvent[]): Promise<boolean> {
    if (batch.length < this.batchSize) return true;
    const last = batch[batch.length - 1];
    return last !== undefined && comparePositions(last.position, await this.store.headPosition()) >= 0;
  }

  /**
   * Takes the read models' statistics after a bulk (a first catch-up, an import, a burst):
   * autovacuum comes by in its own time, and until then PostgreSQL plans blind, so one more
   * condition on a list could flip it from the newest-first index to reading a person's every
   * bug (measured: 50 → 120 ms p99 at 100k bugs). A failure only waits for the next bulk.
   */
  private async analyze(): Promise<void> {
    this.appliedSinceAnalyze = 0;
    const started = performance.now();
    try {
      for (const table of this.projections.flatMap((p) => p.tables)) {
        await sql`analyze ${sql.id(READ_MODEL_SCHEMA, table)}`.execute(this.db);
      }
      this.logger.info('read model statistics taken', { ms: Math.round(performance.now() - started) });
    } catch (error) {
      this.logger.warn('read model statistics not taken', { error: (error as Error).message });
    }
  }

  /** Applies one batch to every live projection, exactly once, and announces it. */
  async applyBatch(batch: readonly RecordedEvent[]): Promise<void> {
    const last = batch[batch.length - 1];
    if (!last) return;
    const topics = new Set<string>();
    await this.batchDb.transaction().execute(async (tx) => {
      // Read models are derived data and move with their checkpoint in this one
      // transaction: a crash can only lose whole batches, which are then replayed.
      // So the commit need not wait for the WAL flush (set in the same round trip).
      const checkpoints = await sql<CheckpointRow>`
        select name, position, version, set_config('synchronous_commit', 'off', true) as sync
        from projector.checkpoints
        where name in (${sql.join(this.projections.map((p) => p.name))})
        order by name for update`.execute(tx);
      const byName = new Map(checkpoints.rows.map((r) => [r.name, r.position]));
      for (const projection of this.projections) {
        const seen = byName.get(projection.name) ?? START;
        // Events at or before a checkpoint were applied already (by us, a rebuild,
        // or a previous leader): skipping them is what makes a batch exactly-once.
        const fresh = seen >= last.position ? [] : batch.filter((e) => e.position > seen);
        if (fresh.length > 0) await projection.apply(fresh, { db: tx, schema: READ_MODEL_SCHEMA, topics });
      }
      // Checkpoints, the resume row and the notices in one statement (data-modifying CTEs
      // always run; the notices go out on commit, in order), held to travel with the commit.
      const topicList = [...topics];
      const notices = chunkNotices(last.position, topicList).map(encodeChangeNotice);
      await sql`/* deferred */
        with moved as (
          update projector.checkpoints set position = ${last.position}, updated_at = now()
          where name in (${sql.join(this.projections.map((p) => p.name))}) and position < ${last.position}
          returning 1
        ), recorded as (
          insert into projector.changes (position, topics)
          select ${last.position}, ${topicList}::text[] where cardinality(${topicList}::text[]) > 0
          on conflict (position) do nothing
          returning 1
        )
        select pg_notify(${CHANGES_CHANNEL}, notice)
        from unnest(${notices}::text[]) with ordinality as n(notice, i) order by i`.execute(tx);
    });
    this.position = last.position;
    this.options.changeFeed?.publish({ position: last.position, topics: [...topics] });
    if (Math.random() < 0.01) void this.trimChanges();
  }

  private async trimChanges(): Promise<void> {
    await sql`delete from projector.changes where position < (
        select position from projector.changes order by position desc offset ${CHANGES_KEPT} limit 1)`
      .execute(this.db)
      .catch(() => {});
  }

  /**
   * Replays every event into fresh tables, then swaps them in atomically while the
   * live projector keeps running: the swap holds the projection's checkpoint row,
   * which is the first thing every live batch locks.
   */
  async rebuild(name: string): Promise<{ events: number; ms: number }> {
    const started = performance.now();
    const { projection, events } = await this.replayIntoShadow(name, async (tx, schema, live, projection) => {
      for (const table of projection.tables) {
        await sql`drop table if exists ${sql.id(READ_MODEL_SCHEMA, table)} cascade`.execute(tx);
        await sql`alter table ${sql.id(schema, table)} set schema ${sql.id(READ_MODEL_SCHEMA)}`.execute(tx);
      }
      await this.options.views?.(tx);
      await sql`
        insert into projector.checkpoints (name, position, version) values (${name}, ${live}, ${projection.version})
        on conflict (name) do update set position = excluded.position, version = excluded.version, updated_at = now()`.execute(
        tx,
      );
      const [notice] = chunkNotices(live, [], true);
      if (notice) await sql`select pg_notify(${CHANGES_CHANNEL}, ${encodeChangeNotice(notice)})`.execute(tx);
    });
    // Fresh tables have no statistics until autovacuum comes by: queries would be planned blind.
    for (const table of projection.tables) await sql`analyze ${sql.id(READ_MODEL_SCHEMA, table)}`.execute(this.db);
    const ms = performance.now() - started;
    this.logger.info('projection rebuilt', { projection: projection.name, events, ms: Math.round(ms) });
    return { events, ms };
  }

  /**
   * Rebuilds the projection into shadow tables up to the live checkpoint and compares them
   * with the live tables row for row (`bugtrail verify`): what only one side has, per table.
   * The live tables are left as they are.
   */
  async compareWithRebuild(name: string): Promise<ProjectionDifference[]> {
    const differences: ProjectionDifference[] = [];
    await this.replayIntoShadow(name, async (tx, schema, _live, projection) => {
      for (const table of projection.tables) {
        const live = sql.id(READ_MODEL_SCHEMA, table);
        const shadow = sql.id(schema, table);
        const onlyLive = await sql<
          Record<string, unknown>
        >`select * from ${live} except all select * from ${shadow}`.execute(tx);
        const onlyRebuilt = await sql<
          Record<string, unknown>
        >`select * from ${shadow} except all select * from ${live}`.execute(tx);
        if (onlyLive.rows.length > 0 || onlyRebuilt.rows.length > 0) {
          differences.push({ projection: name, table, onlyLive: onlyLive.rows, onlyRebuilt: onlyRebuilt.rows });
        }
      }
    });
    return differences;
  }

  /** Replays every event into a fresh schema; `finish` runs in the transaction that holds the checkpoint. */
  private async replayIntoShadow(
    name: string,
    finish: (tx: Transaction<ReadModelDb>, schema: string, live: Position, projection: Projection) => Promise<void>,
  ): Promise<{ projection: Projection; events: number }> {
    const projection = this.projections.find((p) => p.name === name);
    if (!projection) throw new Error(`unknown projection: ${name}`);
    const schema = `rebuild_${name.replace(/[^a-z0-9_]/gi, '_')}`.toLowerCase();
    await sql`drop schema if exists ${sql.id(schema)} cascade`.execute(this.db);
    await sql`create schema ${sql.id(schema)}`.execute(this.db);
    await projection.createTables(this.db, schema);
    let position: Position = START;
    let events = 0;
    const read = (from: Position, limit: Position): Promise<RecordedEvent[]> => {
      if (from >= limit) return Promise.resolve([]);
      const reading = this.store.readAll(from, this.batchSize * 20);
      reading.catch(() => {}); // awaited below; a batch that fails first leaves it unread
      return reading;
    };
    /** Replays up to `limit`: each batch in a transaction of its own, or all in `held`'s. */
    const replayUpTo = async (limit: Position, held?: BatchWriter) => {
      let next = read(position, limit);
      for (;;) {
        const batch = (await next).filter((e) => e.position <= limit);
        if (batch.length === 0) break;
        const end = batch[batch.length - 1]!.position;
        // The next batch is read (and parsed) on another connection while this one is written.
        next = read(end, limit);
        const apply = ({ tx, copy }: BatchWriter) =>
          projection.apply(batch, { db: tx, schema, topics: new Set(), copy });
        if (held) await apply(held);
        else await this.onOneConnection(schema, (db, copy) => db.transaction().execute((tx) => apply({ tx, copy })));
        position = end;
        events += batch.length;
      }
    };
    try {
      // Catch up without blocking anyone, then finish the last stretch holding the checkpoint.
      for (let round = 0; round < 100; round++) {
        const live = await this.liveCheckpoint(name);
        if (live === null || position >= live) break;
        await replayUpTo(live);
      }
      // Readers' indexes are built once, over the replayed rows, before the short locked stretch.
      await projection.createIndexes?.(this.db, schema);
      await this.onOneConnection(schema, (db, copy) =>
        db.transaction().execute(async (tx) => {
          const locked = await sql<{ position: Position }>`
            select position from projector.checkpoints where name = ${name} for update`.execute(tx);
          const live = locked.rows[0]?.position ?? (await this.store.headPosition());
          await replayUpTo(live, { tx, copy });
          await finish(tx, schema, live, projection);
        }),
      );
    } finally {
      await sql`drop schema if exists ${sql.id(schema)} cascade`.execute(this.db).catch(() => {});
    }
    return { projection, events };
  }

  /**
   * Runs `work` on one connection of the pool, through kysely and by COPY alike (a rebuild
   * batch's rows and statements share its transaction). A connection left mid-failure is
   * closed, not handed on.
   */
  private async onOneConnection<T>(schema: string, work: (db: Kysely<ReadModelDb>, copy: BulkWriter) => Promise<T>) {
    const client = await this.pool.connect();
    let failed = false;
    try {
      return await work(kyselyOnClient<ReadModelDb>(client), copyWriter(client, schema));
    } catch (error) {
      failed = true;
      throw error;
    } finally {
      client.release(failed || undefined);
    }
  }

  private async liveCheckpoint(name: string): Promise<Position | null> {
    const row = await this.runtimeDb
      .selectFrom('projector.checkpoints')
      .select('position')
      .where('name', '=', name)
      .executeTakeFirst();
    return row?.position ?? null;
  }

  /** How far this projector's read models are: the slowest of its projections' checkpoints. */
  async checkpoint(): Promise<Position> {
    return this.slowestCheckpoint();
  }

  /**
   * Where following must resume: the slowest of this projector's own projections
   * (one without a row starts from the beginning). Rows of projections this
   * instance does not run are not its business.
   */
  private async slowestCheckpoint(): Promise<Position> {
    const byName = new Map((await this.readCheckpoints()).map((r) => [r.name, r.position]));
    return (
      this.projections.reduce<Position | null>((min, p) => {
        const position = byName.get(p.name) ?? START;
        return min === null || position < min ? position : min;
      }, null) ?? START
    );
  }

  private async readCheckpoints(): Promise<CheckpointRow[]> {
    return this.runtimeDb.selectFrom('projector.checkpoints').select(['name', 'position', 'version']).execute();
  }

  /** Where the projector is and how far behind the store it runs. */
  /** Whether this process leads (applies batches), stands by, or has not started. */
  get role(): ProjectorStatus['role'] {
    return this.leader.role;
  }

  async status(): Promise<ProjectorStatus> {
    const position = await this.slowestCheckpoint();
    const cap = 10_000;
    const pending = await this.store.readAll(position, cap);
    const oldest = pending[0];
    return {
      role: this.leader.role,
      position,
      eventsBehind: pending.length,
      eventsBehindCapped: pending.length >= cap,
      secondsBehind: oldest ? Math.max(0, (Date.now() - oldest.recordedAt.getTime()) / 1000) : 0,
    };
  }

  /** Stops at a batch boundary: the batch in flight commits (or rolls back) whole. */
  async stop(): Promise<void> {
    await this.leader.stop(() => this.subscription?.close());
  }
}

/** Rows only one side has after rebuilding a projection beside the live one. */
export type ProjectionDifference = Readonly<{
  projection: string;
  table: string;
  onlyLive: readonly Record<string, unknown>[];
  onlyRebuilt: readonly Record<string, unknown>[];
}>;
