import type { LabelDto, LabelRef } from '@bugtrail/domain';
import type { Kysely } from 'kysely';
import { READ_MODEL_SCHEMA } from '../runtime/projection.js';
import type { ReadModelDb } from '../schema.js';

/**
 * Labels as the bugs projection keeps them (its `labels` table, issue 36): the list admins
 * manage and everyone picks from, and the names bug answers show.
 */

/** Every label that exists, by name. */
export async function listLabels(db: Kysely<ReadModelDb>): Promise<LabelDto[]> {
  const rows = await db
    .withSchema(READ_MODEL_SCHEMA)
    .selectFrom('labels')
    .select(['id', 'name', 'color', 'description'])
    .where('deleted', '=', false)
    .orderBy((eb) => eb.fn('lower', ['name']))
    .execute();
  return rows.map((r) => ({ _id: r.id, name: r.name, color: r.color, description: r.description }));
}

/** The labels that exist among `ids` (and the deleted ones too with `withDeleted`: a history names them). */
export async function findLabelRefs(
  db: Kysely<ReadModelDb>,
  ids: Iterable<string>,
  withDeleted = false,
): Promise<Map<string, LabelRef>> {
  const wanted = [...new Set(ids)];
  if (wanted.length === 0) return new Map();
  let query = db
    .withSchema(READ_MODEL_SCHEMA)
    .selectFrom('labels')
    .select(['id', 'name', 'color'])
    .where('id', 'in', wanted);
  if (!withDeleted) query = query.where('deleted', '=', false);
  const rows = await query.execute();
  return new Map(rows.map((r) => [r.id, { _id: r.id, name: r.name, color: r.color }]));
}

/**
 * The ids of the labels `names` name (a name in any case, or an id), each looked up once; a
 * name no label has matches nothing (`null` in its place), so a filter on it finds no bug.
 */
export async function resolveLabels(db: Kysely<ReadModelDb>, names: readonly string[]): Promise<(string | null)[]> {
  if (names.length === 0) return [];
  const lowered = names.map((n) => n.trim().toLocaleLowerCase('en'));
  const rows = await db
    .withSchema(READ_MODEL_SCHEMA)
    .selectFrom('labels')
    .select(['id', 'name'])
    .where('deleted', '=', false)
    .where((eb) => eb.or([eb('id', 'in', names as string[]), eb(eb.fn('lower', ['name']), 'in', lowered)]))
    .execute();
  return names.map(
    (name, i) => rows.find((r) => r.id === name || r.name.toLocaleLowerCase('en') === lowered[i])?.id ?? null,
  );
}
