import type pg from 'pg';
import { chainHash, GENESIS_HASH } from '../audit/hash-chain.js';

/**
 * The PostgreSQL event store's schema. Idempotent; run at every start under an
 * advisory lock so that racing starts do not trip over each other.
 *
 * Global order is (transaction id, position), read only below the oldest running
 * transaction, so that a transaction that commits late is never skipped.
 */
export const EVENTSTORE_SCHEMA_SQL = /* sql */ `
create schema if not exists eventstore;

create table if not exists eventstore.streams (
  stream_id text primary key,
  revision bigint not null
);

create table if not exists eventstore.events (
  position bigint generated always as identity,
  transaction_id xid8 not null default pg_current_xact_id(),
  event_id uuid not null,
  stream_id text not null,
  stream_revision bigint not null,
  type text not null,
  data jsonb not null,
  metadata jsonb not null,
  recorded_at timestamptz not null default clock_timestamp(),
  primary key (position),
  constraint events_event_id_key unique (event_id),
  constraint events_stream_revision_key unique (stream_id, stream_revision)
);

create index if not exists events_global_order on eventstore.events (transaction_id, position);

-- The tamper-evident chain (api.md "Audit trail", audit/hash-chain.ts): written by
-- append_events in the statement that writes the event. Events stored before it existed
-- get theirs from chainUnhashedEvents at start, in stream order.
alter table eventstore.events add column if not exists hash text;

drop function if exists eventstore.append_events(text, text, bigint, uuid[], text[], jsonb[], jsonb[]);

create or replace function eventstore.append_events(
  p_stream text,
  p_mode text,
  p_expected bigint,
  p_ids uuid[],
  p_types text[],
  p_data jsonb[],
  p_meta jsonb[],
  p_head text[],
  p_tail text[]
) returns table (revision bigint, tx text, pos bigint, replayed boolean)
language plpgsql as $fn$
#variable_conflict use_column
declare
  n int := cardinality(p_ids);
  v_start bigint;
  v_actual bigint;
  v_found int;
  v_same int;
  v_hash text;
  v_hashes text[] := array[]::text[];
begin
  if (select count(distinct u.id) from unnest(p_ids) as u(id)) <> n then
    raise exception 'the same event id twice in one append' using errcode = 'BT410';
  end if;
  -- A retried append whose ids are all stored already, in this stream, answers as
  -- the first one did. Ids stored as anything else (another stream, part of another
  -- batch) are refused: answering "done" would claim a write that never happened.
  select count(*)::int, (count(*) filter (where e.stream_id = p_stream))::int into v_found, v_same
    from eventstore.events e where e.event_id = any(p_ids);
  if v_found > 0 then
    if v_found <> n or v_same <> n then
      raise exception 'event id already used by another append' using errcode = 'BT410';
    end if;
    return query
      select e.stream_revision, e.transaction_id::text, e.position, true
      from eventstore.events e where e.event_id = any(p_ids) order by e.position;
    return;
  end if;

  -- A stream's revisions must follow the global (transaction id, position) order, or
  -- a projection would fold revision 1 before revision 0. A transaction gets its id
  -- at its first write, and a row lock's waiter has its id already: so appends to one
  -- stream take turns on an advisory lock (which needs no id) before writing
  -- anything, and the append must be its transaction's first write.
  if pg_current_xact_id_if_assigned() is not null then
    raise exception 'append_events must be the first write of its transaction' using errcode = 'BT412';
  end if;
  perform pg_advisory_xact_lock(7310003, hashtext(p_stream));

  if p_mode = 'no_stream' then
    insert into eventstore.streams as s (stream_id, revision) values (p_stream, n - 1)
      on conflict do nothing;
    if not found then
      select s.revision into v_actual from eventstore.streams s where s.stream_id = p_stream;
      raise exception 'wrong expected revision' using errcode = 'BT409', detail = coalesce(v_actual::text, 'no_stream');
    end if;
    v_start := 0;
  elsif p_mode = 'revision' then
    update eventstore.streams s set revision = s.revision + n
      where s.stream_id = p_stream and s.revision = p_expected;
    if not found then
      select s.revision into v_actual from eventstore.streams s where s.stream_id = p_stream;
      raise exception 'wrong expected revision' using errcode = 'BT409', detail = coalesce(v_actual::text, 'no_stream');
    end if;
    v_start := p_expected + 1;
  elsif p_mode = 'stream_exists' then
    update eventstore.streams s set revision = s.revision + n
      where s.stream_id = p_stream returning s.revision - n + 1 into v_start;
    if not found then
      raise exception 'wrong expected revision' using errcode = 'BT409', detail = 'no_stream';
    end if;
  elsif p_mode = 'any' then
    insert into eventstore.streams as s (stream_id, revision) values (p_stream, n - 1)
      on conflict (stream_id) do update set revision = s.revision + n
      returning s.revision - n + 1 into v_start;
  else
    raise exception 'unknown expected revision mode %', p_mode;
  end if;

  -- Each hash covers its predecessor's: sha256(previous hash || canonical event), where the
  -- adapter sent the canonical text around the revision decided here.
  if v_start = 0 then
    v_hash := repeat('0', 64);
  else
    select e.hash into v_hash from eventstore.events e
      where e.stream_id = p_stream and e.stream_revision = v_start - 1;
    if v_hash is null then
      raise exception 'stream % has events without a hash: run the chain migration', p_stream using errcode = 'BT413';
    end if;
  end if;
  for i in 1..n loop
    v_hash := encode(sha256(convert_to(v_hash || p_head[i] || (v_start + i - 1)::text || p_tail[i], 'UTF8')), 'hex');
    v_hashes := v_hashes || v_hash;
  end loop;

  return query
    insert into eventstore.events as e (event_id, stream_id, stream_revision, type, data, metadata, hash)
    select u.id, p_stream, v_start + u.ord - 1, u.type, u.data, u.meta, v_hashes[u.ord]
    from unnest(p_ids, p_types, p_data, p_meta) with ordinality as u(id, type, data, meta, ord)
    order by u.ord
    returning e.stream_revision, e.transaction_id::text, e.position, false;

  -- No NOTIFY here: a notifying commit takes a cluster-wide lock and would serialize
  -- every append. The adapter rings a coalesced doorbell after commit instead.
end
$fn$;
`;

export async function migrateEventStore(pool: pg.Pool): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query('begin');
    await client.query('select pg_advisory_xact_lock(7310001)');
    await client.query(EVENTSTORE_SCHEMA_SQL);
    await chainUnhashedEvents(client);
    await client.query('commit');
  } catch (error) {
    await client.query('rollback').catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}

type UnhashedRow = {
  position: string;
  stream_id: string;
  stream_revision: string;
  type: string;
  data: unknown;
  metadata: unknown;
};

/**
 * Gives every event stored before the chain existed its hash, stream by stream in revision
 * order (a no-op once done: one indexed probe). Runs inside the migration's transaction,
 * under its advisory lock, before anything appends.
 */
export async function chainUnhashedEvents(client: pg.PoolClient, batchSize = 5000): Promise<number> {
  const { rows: probe } = await client.query('select 1 from eventstore.events where hash is null limit 1');
  if (probe.length === 0) return 0;
  let chained = 0;
  let after = null as { stream: string; revision: number } | null;
  let previous = null as { stream: string; hash: string } | null;
  for (;;) {
    const { rows }: { rows: UnhashedRow[] } = await client.query<UnhashedRow>(
      `select position, stream_id, stream_revision, type, data, metadata from eventstore.events
        where ($1::text is null or (stream_id, stream_revision) > ($1::text, $2::bigint))
        order by stream_id, stream_revision limit $3`,
      [after?.stream ?? null, after?.revision ?? null, batchSize],
    );
    if (rows.length === 0) return chained;
    const positions: string[] = [];
    const hashes: string[] = [];
    for (const row of rows) {
      const revision = Number(row.stream_revision);
      const prior = revision === 0 ? GENESIS_HASH : previous?.stream === row.stream_id ? previous.hash : null;
      if (prior === null) throw new Error(`cannot chain ${row.stream_id}: revision ${revision} has no predecessor`);
      const hash = chainHash(prior, {
        stream: row.stream_id,
        revision,
        type: row.type,
        data: row.data,
        metadata: row.metadata,
      });
      positions.push(row.position);
      hashes.push(hash);
      previous = { stream: row.stream_id, hash };
      after = { stream: row.stream_id, revision };
    }
    await client.query(
      `update eventstore.events e set hash = v.hash
         from unnest($1::bigint[], $2::text[]) as v(position, hash) where e.position = v.position`,
      [positions, hashes],
    );
    chained += rows.length;
  }
}
