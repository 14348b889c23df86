import { pickOne, pickText } from '../../lib/search';

/**
 * A bug list's whole state lives in its URL (issue 16: a link or a reload shows the
 * same list): the page's status tab, the view, the order and every filter. Checked by
 * hand like the other search params (no zod in the entry chunk).
 */
export const sortColumns = [
  'number',
  'title',
  'status',
  'priority',
  'severity',
  'assignees',
  'due',
  'updated',
  'created',
] as const;
export type SortColumn = (typeof sortColumns)[number];
export const dueFilters = ['overdue', 'week', 'none'] as const;
export type DueFilter = (typeof dueFilters)[number];
export const listViews = ['cards', 'table'] as const;
export type ListView = (typeof listViews)[number];

export type ListSearch = {
  view?: ListView;
  sort?: string;
  q?: string;
  priority?: string;
  severity?: string;
  assignee?: string;
  reporter?: string;
  module?: string;
  due?: DueFilter;
};

const words = (value: unknown, allowed: readonly string[]): string | undefined => {
  const text = pickText(value, 100);
  if (!text) return undefined;
  const kept = text.split(',').filter((w) => allowed.includes(w));
  return kept.length > 0 ? [...new Set(kept)].join(',') : undefined;
};
const id = (value: unknown) => {
  const text = pickText(value, 100);
  return text && /^[\w-]+$/.test(text) ? text : undefined;
};

/** The list part of a page's search params; unknown or malformed values are dropped. */
export function listSearchFrom(search: Record<string, unknown>): ListSearch {
  const sort = pickText(search.sort, 20);
  const result: ListSearch = {
    view: pickOne(search.view, listViews),
    sort: sort && sortColumns.includes(sort.replace(/^-/, '') as SortColumn) ? sort : undefined,
    q: pickText(search.q),
    priority: words(search.priority, ['Low', 'Medium', 'High']),
    severity: words(search.severity, ['Minor', 'Major', 'Critical']),
    assignee: id(search.assignee),
    reporter: id(search.reporter),
    module: pickText(search.module, 50),
    due: pickOne(search.due, dueFilters),
  };
  return Object.fromEntries(Object.entries(result).filter(([, v]) => v !== undefined)) as ListSearch;
}

/** The API's query for a list (view is the page's alone). */
export function listApiParams(search: ListSearch & { status?: string | undefined }): Record<string, string> {
  const params: Record<string, string> = {};
  for (const key of ['status', 'sort', 'q', 'priority', 'severity', 'assignee', 'reporter', 'module', 'due'] as const) {
    const value = search[key];
    if (value) params[key] = value;
  }
  return params;
}

/** Whether anything beyond the status tab narrows the list. */
export function hasFilters(search: ListSearch): boolean {
  return Boolean(
    search.q || search.priority || search.severity || search.assignee || search.reporter || search.module || search.due,
  );
}

/** The next sort when a column header is pressed: ascending, then descending, then the default. */
export function nextSort(current: string | undefined, column: SortColumn): string | undefined {
  if (current === column) return `-${column}`;
  if (current === `-${column}`) return undefined;
  return column;
}

/** A due date is overdue before the start of today (UTC, as the server counts) unless the bug is Closed. */
export function isOverdue(bug: { dueDate: string | null; status: string }, now = new Date()): boolean {
  if (!bug.dueDate || bug.status === 'Closed') return false;
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return Date.parse(bug.dueDate) < today;
}

const VIEW_KEY = 'bugtrail.listView';

/** The view a list opens in when its URL does not say: the last one chosen, else cards. */
export function storedView(): ListView {
  try {
    return localStorage.getItem(VIEW_KEY) === 'table' ? 'table' : 'cards';
  } catch {
    return 'cards';
  }
}

export function storeView(view: ListView): void {
  try {
    localStorage.setItem(VIEW_KEY, view);
  } catch {
    // Private mode: the URL still carries it.
  }
}
