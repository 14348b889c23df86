import { compact, pickOne, pickText } from '../../lib/search';
import { type FlowGroup, flowGroups } from './flow-types';

/**
 * The Flow page's URL: `from`, `to` and `asOf` as UTC days (YYYY-MM-DD, as the API reads
 * them: `to` and `asOf` mean the end of that day), `groupBy` and `project` (a key: one project's
 * bugs, and the time in each of its workflow states), so a link reproduces the view. Checked by hand like the other routes' search (this runs in the entry chunk).
 */
export type FlowSearch = { from?: string; to?: string; asOf?: string; groupBy?: FlowGroup; project?: string };

export const DEFAULT_GROUP: FlowGroup = 'severity';

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** A real calendar day written YYYY-MM-DD, else undefined. */
export function pickDay(value: unknown): string | undefined {
  if (typeof value !== 'string' || !DAY.test(value)) return undefined;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value ? value : undefined;
}

export function validateFlowSearch(search: Record<string, unknown>): FlowSearch {
  return compact({
    from: pickDay(search.from),
    to: pickDay(search.to),
    asOf: pickDay(search.asOf),
    groupBy: pickOne(search.groupBy, flowGroups),
    project: pickText(search.project, 100),
  });
}

/** `from` after `to` is a range the API refuses; the page says so instead of asking. */
export function isRangeReversed(search: FlowSearch): boolean {
  return !!search.from && !!search.to && search.from > search.to;
}
