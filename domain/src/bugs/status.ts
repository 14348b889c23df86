import { ValidationError } from '../core/errors.js';
import type { BugStatus } from './bug-vocabulary.js';

/**
 * Status spellings accepted on input (api.md): the stored values plus the admin and
 * developer screens' aliases, Pending (= Open) and Resolved (= Closed), any case.
 */
const aliases: ReadonlyMap<string, BugStatus> = new Map([
  ['open', 'Open'],
  ['pending', 'Open'],
  ['in progress', 'In Progress'],
  ['inprogress', 'In Progress'],
  ['in-progress', 'In Progress'],
  ['in_progress', 'In Progress'],
  ['closed', 'Closed'],
  ['resolved', 'Closed'],
]);

export const statusMessages = {
  required: 'Status is required',
  invalid: 'Status must be one of Open, In Progress, Closed (or Pending, Resolved)',
} as const;

/** The stored status for an input spelling; null for blank; undefined when unknown. */
export function statusFromInput(input: unknown): BugStatus | null | undefined {
  if (input === undefined || input === null) return null;
  if (typeof input !== 'string') return undefined;
  const key = input.trim().replace(/\s+/g, ' ').toLowerCase();
  if (key === '' || key === 'all') return null;
  // A Map, not an object: `constructor` or `__proto__` must not find Object.prototype's members.
  return aliases.get(key);
}

/** A status filter (`?status=`): blank or "all" = every status (null); unknown → 400. */
export function parseStatusFilter(input: unknown, field = 'status'): BugStatus | null {
  const status = statusFromInput(input);
  if (status === undefined) throw ValidationError.field(field, statusMessages.invalid);
  return status;
}

/** A status to set (`PUT /api/bugs/{id}/status`): required; unknown → 400. */
export function parseStatusValue(input: unknown, field = 'status'): BugStatus {
  const status = statusFromInput(input);
  if (status === null) throw ValidationError.field(field, statusMessages.required);
  if (status === undefined) throw ValidationError.field(field, statusMessages.invalid);
  return status;
}

/** The display mapping lives with the other status words (zod-free, for the browser too). */
export { statusDisplayName } from './bug-vocabulary.js';
