import { ValidationError } from '@bugtrail/domain';
import { resolveProjectIds } from '@bugtrail/projector';
import type { Context } from 'hono';
import type { ReadApiDeps } from './deps.js';

/** At most this many values in one filter (each value at most FILTER_VALUE_MAX characters). */
const FILTER_VALUES_MAX = 50;
const FILTER_VALUE_MAX = 100;

/**
 * Every value of a filter (issue 40): the parameter repeated (`?status=Open&status=Closed`),
 * each one also split at commas unless `whole` (a module's name may hold a comma), trimmed,
 * blanks and repeats dropped. A spec client's one value reads as before.
 */
export function filterValues(c: Context, field: string, whole = false, max = FILTER_VALUE_MAX): string[] {
  const raw = c.req.queries(field) ?? [];
  const parts = whole ? raw : raw.flatMap((value) => value.split(','));
  const values = [...new Set(parts.map((part) => part.trim()).filter((part) => part !== ''))];
  if (values.length > FILTER_VALUES_MAX) {
    throw ValidationError.field(field, `${field} takes at most ${FILTER_VALUES_MAX} values`);
  }
  if (values.some((value) => value.length > max)) {
    throw ValidationError.field(field, `${field} must be at most ${max} characters`);
  }
  return values;
}

/**
 * The `project` filter (api.md "Projects": key or id, repeatable) as project ids; undefined
 * when none was sent. A value naming no project matches nothing.
 */
export async function projectFilter(c: Context, deps: Pick<ReadApiDeps, 'db'>): Promise<string[] | undefined> {
  const values = filterValues(c, 'project');
  return values.length > 0 ? resolveProjectIds(deps.db, values) : undefined;
}
