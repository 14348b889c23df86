import type pg from 'pg';

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

create or replace function eventstore.append_events(
  p_stream text,
  p_mode text,
  p_expected bigint,
  p_ids uuid[],
  p_types text[],
  p_data jsonb[],
  p_meta jsonb[]
) returns table (revision bigint, tx text, pos bigint, replayed boolean)
language plpgsql as $fn$
#variable_conflict use_column
declare
  n int := cardinality(p_ids);
  v_start bigint;
  v_actual bigint;
  v_found int;
  v_same int;
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

  return query
    insert into eventstore.events as e (event_id, stream_id, stream_revision, type, data, metadata)
    select u.id, p_stream, v_start + u.ord - 1, u.type, u.data, u.meta
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
    await client.query('commit');
  } catch (error) {
    await client.query('rollback').catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}
