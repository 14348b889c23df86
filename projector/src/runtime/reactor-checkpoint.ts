import type { EventStore, Position } from '@bugtrail/eventstore';
import type pg from 'pg';

/**
 * A reactor's checkpoint in `projector.reactors`. On its very first start a reactor begins at
 * the store's head: what happened before it existed is not its to act on.
 */
export async function startAtHeadOnFirstRun(store: EventStore, pool: pg.Pool, reactor: string): Promise<void> {
  const head = await store.headPosition();
  await pool.query('insert into projector.reactors (name, position) values ($1, $2) on conflict (name) do nothing', [
    reactor,
    head,
  ]);
}

/** Where the reactor goes on from. */
export async function reactorPosition(pool: pg.Pool, reactor: string): Promise<Position | undefined> {
  const { rows } = await pool.query<{ position: string }>('select position from projector.reactors where name = $1', [
    reactor,
  ]);
  return rows[0]?.position as Position | undefined;
}

/** Moves the reactor's checkpoint forward (never back), on the pool or inside a caller's transaction. */
export async function saveReactorPosition(
  db: Pick<pg.Pool | pg.PoolClient, 'query'>,
  reactor: string,
  position: Position,
): Promise<void> {
  await db.query(savePositionSql(1, 2), [reactor, position]);
}

/**
 * The checkpoint's upsert, with the reactor and the position as the parameters numbered
 * `reactor` and `position`: also the last part of a reactor's own statement.
 */
export function savePositionSql(reactor: number, position: number): string {
  return `insert into projector.reactors (name, position) values ($${reactor}, $${position})
     on conflict (name) do update set position = excluded.position, updated_at = now()
     where projector.reactors.position < excluded.position`;
}
