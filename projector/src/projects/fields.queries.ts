import { type FieldDef, type FieldValue, liveFields, type WorkflowState } from '@bugtrail/domain';
import { type Expression, type Kysely, type SqlBool, sql } from 'kysely';
import { READ_MODEL_SCHEMA } from '../runtime/projection.js';
import type { ReadModelDb } from '../schema.js';

/**
 * Custom fields on the read side (issue 37): each project's fields as the projects read model
 * keeps them, and what a list's `field.<key>=value` and `sort=field.<key>` mean in SQL over the
 * bugs' stored values (by field id, option ids for selects).
 */

/** Each project's fields, removed ones flagged (a history names them too). */
export async function findProjectFields(
  db: Kysely<ReadModelDb>,
  ids: Iterable<string>,
): Promise<Map<string, FieldDef[]>> {
  const wanted = [...new Set(ids)];
  if (wanted.length === 0) return new Map();
  const rows = await db
    .withSchema(READ_MODEL_SCHEMA)
    .selectFrom('projects')
    .select(['id', 'fields'])
    .where('id', 'in', wanted)
    .execute();
  return new Map(rows.map((r) => [r.id, r.fields]));
}

/** Each project's fields and workflow states (a bug's answer as of a past day shows them). */
export async function findProjectSetups(
  db: Kysely<ReadModelDb>,
  ids: Iterable<string>,
): Promise<Map<string, { fields: FieldDef[]; states: WorkflowState[] }>> {
  const wanted = [...new Set(ids)];
  if (wanted.length === 0) return new Map();
  const rows = await db
    .withSchema(READ_MODEL_SCHEMA)
    .selectFrom('projects')
    .select(['id', 'fields', 'states'])
    .where('id', 'in', wanted)
    .execute();
  return new Map(rows.map((r) => [r.id, { fields: r.fields, states: r.states }]));
}

/** Every project's live field with this key (a key means one field in each project that has it). */
export type KeyedField = Readonly<{ projectId: string; field: FieldDef }>;

export async function fieldsWithKeys(db: Kysely<ReadModelDb>, keys: readonly string[]): Promise<KeyedField[]> {
  if (keys.length === 0) return [];
  const { rows } = await sql<{ id: string; fields: FieldDef[] }>`
    select id, fields from ${sql.id(READ_MODEL_SCHEMA, 'projects')}
    where fields @> any(${keys.map((key) => JSON.stringify([{ key }]))}::jsonb[])`.execute(db);
  return rows.flatMap((r) =>
    liveFields(r.fields)
      .filter((f) => keys.includes(f.key))
      .map((field) => ({ projectId: r.id, field })),
  );
}

/** A list's filter on one field: its key, the values as sent (any of them), and the fields it means (fieldsWithKeys). */
export type FieldFilter = Readonly<{ key: string; values: readonly string[]; fields: readonly KeyedField[] }>;

const sameName = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

/** The stored value `value` (as sent in a query string) stands for in one field; undefined: none it could hold. */
function storedFor(field: FieldDef, value: string): FieldValue | undefined {
  const v = value.trim();
  switch (field.type) {
    case 'number': {
      const n = Number(v);
      return v !== '' && Number.isFinite(n) ? n : undefined;
    }
    case 'select':
    case 'multi_select': {
      const option = field.options.find((o) => o.id === v || sameName(o.name, v));
      if (!option) return undefined;
      return field.type === 'select' ? option.id : [option.id];
    }
    default:
      return v;
  }
}

/** `field.<key>=value` (repeated: any of them): a bug matches when its project's field of that key holds the value (a multi-select: among them). */
export function fieldFilterSql(filter: FieldFilter): Expression<SqlBool> {
  const either = filter.fields.flatMap(({ projectId, field }) =>
    filter.values.flatMap((value) => {
      const stored = storedFor(field, value);
      if (stored === undefined) return [];
      return [
        sql<boolean>`(project_id = ${projectId}::text and field_values @> ${JSON.stringify({ [field.id]: stored })}::jsonb)`,
      ];
    }),
  );
  return either.length > 0 ? sql<boolean>`(${sql.join(either, sql` or `)})` : sql<boolean>`false`;
}

/**
 * The option counters (`<field id>/<option id>/`, in each project's scope) whose sum is how many
 * bugs of `projects` a filter keeps, or null when counters cannot say: a field that is not a
 * select, or a multi-select asked for more than one option (a bug holding both counts once).
 */
export function optionCounters(
  filter: FieldFilter,
  projects: readonly string[],
): { projectId: string; prefix: string }[] | null {
  const out: { projectId: string; prefix: string }[] = [];
  for (const { projectId, field } of filter.fields) {
    if (!projects.includes(projectId)) continue;
    if (field.type !== 'select' && !(field.type === 'multi_select' && filter.values.length === 1)) return null;
    const options = new Set<string>();
    for (const value of filter.values) {
      const stored = storedFor(field, value);
      if (stored !== undefined) options.add(Array.isArray(stored) ? stored[0]! : String(stored));
    }
    for (const option of options) out.push({ projectId, prefix: `${field.id}/${option}/` });
  }
  return out;
}

/**
 * `sort=field.<key>`: the value as jsonb, never null (so a keyset comparison is total). Numbers
 * sort as numbers, days and text as text, a select by its options' order, a multi-select by
 * its first; a bug with no value sorts after every value (an object sorts after every scalar).
 */
export function fieldSortSql(fields: readonly KeyedField[]): Expression<unknown> {
  if (fields.length === 0) return sql`'{}'::jsonb`;
  const cases = fields.map(({ projectId, field }) => {
    const v = sql`field_values->${field.id}::text`;
    const order = field.options.map((o) => o.id);
    let value = v;
    if (field.type === 'select')
      value = sql`to_jsonb(array_position(${order}::text[], field_values->>${field.id}::text))`;
    else if (field.type === 'multi_select')
      value = sql`to_jsonb(array_position(${order}::text[], field_values->${field.id}::text->>0))`;
    else if (field.type === 'text' || field.type === 'url')
      value = sql`to_jsonb(lower(field_values->>${field.id}::text))`;
    return sql`when ${projectId}::text then ${value}`;
  });
  return sql`coalesce(case project_id ${sql.join(cases, sql` `)} end, '{}'::jsonb)`;
}

/**
 * The live fields of these projects (every project when none are named), one per key in the
 * order projects were made and fields added: an export's columns.
 */
export async function fieldColumns(
  db: Kysely<ReadModelDb>,
  projectIds?: readonly string[],
): Promise<{ key: string; name: string }[]> {
  if (projectIds && projectIds.length === 0) return [];
  let query = db.withSchema(READ_MODEL_SCHEMA).selectFrom('projects').select(['id', 'fields']).orderBy('position');
  if (projectIds) query = query.where('id', 'in', [...projectIds]);
  const rows = await query.execute();
  const columns = new Map<string, string>();
  for (const row of rows) for (const f of liveFields(row.fields)) if (!columns.has(f.key)) columns.set(f.key, f.name);
  return [...columns].map(([key, name]) => ({ key, name }));
}
