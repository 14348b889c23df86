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
export const slaListFilters = ['at_risk', 'breached'] as const;
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
  /** Bugs whose SLA is at risk or breached (issue 38). */
  sla?: (typeof slaListFilters)[number];
  /** The archived bugs instead of the others (admins archive closed bugs). */
  archived?: true;
  /** Projects by key (or id), comma-separated (api.md "Projects": lists and saved views take `project`). */
  project?: string;
  /** Labels by id (or name), comma-separated; the API gets one `label` each, and all must match (api.md "Labels"). */
  label?: string;
  /** Custom field filters as `key:value` pairs joined by `;`; the API gets `field.<key>=value` each (issue 37). */
  field?: string;
};

const FIELD_KEY = /^[a-z0-9_]{1,40}$/;
/** A list's custom field sort (`field.<key>`, `-` first for descending). */
export const isFieldSort = (sort: string) => /^-?field\.[a-z0-9_]{1,40}$/.test(sort);

/** The `field` search param as pairs; malformed ones dropped, one value per key (the last). */
export function fieldPairs(value: unknown): [string, string][] {
  const text = pickText(value, 1000);
  if (!text) return [];
  const pairs = new Map<string, string>();
  for (const part of text.split(';')) {
    const colon = part.indexOf(':');
    const key = part.slice(0, colon);
    const v = part.slice(colon + 1).trim();
    if (colon > 0 && FIELD_KEY.test(key) && v) pairs.set(key, v.slice(0, 200));
  }
  return [...pairs];
}

/** The pairs back as the `field` search param (undefined when none). */
export const fieldParam = (pairs: [string, string][]): string | undefined =>
  pairs.length > 0 ? pairs.map(([k, v]) => `${k}:${v}`).join(';') : undefined;

const words = (value: unknown, allowed: readonly string[]): string | undefined => {
  const text = pickText(value, 100);
  if (!text) return undefined;
  const kept = text.split(',').filter((w) => allowed.includes(w));
  return kept.length > 0 ? [...new Set(kept)].join(',') : undefined;
};
/** One project key or id, or several comma-separated. */
const projectKeys = (value: unknown) => {
  const text = pickText(value, 500);
  return text && /^[\w-]+(,[\w-]+)*$/.test(text) ? [...new Set(text.split(','))].join(',') : undefined;
};

/** One id, or several comma-separated (issue 40: several assignees or reporters). */
const id = (value: unknown) => {
  const text = pickText(value, 2000);
  return text && /^[\w-]+(,[\w-]+)*$/.test(text) ? [...new Set(text.split(','))].join(',') : undefined;
};

/**
 * Labels: our links write them comma-separated; a hand-written `?label=a&label=b` (which the
 * router reads as a list) counts too. A name may hold spaces, not commas.
 */
export const labelList = (value: unknown): string | undefined => {
  const parts = (Array.isArray(value) ? value : [value])
    .filter((v): v is string => typeof v === 'string')
    .flatMap((v) => v.split(','))
    .map((v) => v.trim().slice(0, 100))
    .filter(Boolean);
  return parts.length > 0 ? [...new Set(parts)].slice(0, 20).join(',') : undefined;
};

/** The list part of a page's search params; unknown or malformed values are dropped. */
export function listSearchFrom(search: Record<string, unknown>): ListSearch {
  const sort = pickText(search.sort, 50);
  const result: ListSearch = {
    view: pickOne(search.view, listViews),
    sort: sort && (sortColumns.includes(sort.replace(/^-/, '') as SortColumn) || isFieldSort(sort)) ? sort : undefined,
    q: pickText(search.q),
    priority: words(search.priority, ['Low', 'Medium', 'High']),
    severity: words(search.severity, ['Minor', 'Major', 'Critical']),
    assignee: id(search.assignee),
    reporter: id(search.reporter),
    module: pickText(search.module, 50),
    due: pickOne(search.due, dueFilters),
    sla: pickOne(search.sla, slaListFilters),
    // The router reads `?archived=true` as JSON (a boolean); a hand-written 'true' counts too.
    archived: search.archived === true || search.archived === 'true' ? true : undefined,
    project: projectKeys(search.project),
    label: labelList(search.label),
    field: fieldParam(fieldPairs(search.field)),
  };
  return Object.fromEntries(Object.entries(result).filter(([, v]) => v !== undefined)) as ListSearch;
}

/** What narrows a list beyond its status tab: what "Clear filters" empties. */
export const filterKeys = [
  'q',
  'priority',
  'severity',
  'assignee',
  'reporter',
  'module',
  'due',
  'sla',
  'archived',
  'project',
  'label',
  'field',
] as const;

/** The API's query for a list (view is the page's alone). */
export function listApiParams(search: ListSearch & { status?: string | undefined }): Record<string, string> {
  const params: Record<string, string> = {};
  for (const key of ['status', 'sort', ...filterKeys] as const) {
    const value = search[key];
    if (value) params[key] = String(value);
  }
  return params;
}

/** The query string of a list's API params: each label its own `label` (all must match). */
export function listQueryString(params: Record<string, string>): URLSearchParams {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (key === 'label') for (const label of value.split(',')) query.append('label', label);
    else if (key === 'field') for (const [k, v] of fieldPairs(value)) query.append(`field.${k}`, v);
    else query.set(key, value);
  }
  return query;
}

/** The xlsx export of the list as it shows: the same filters, search and order (issue 40). */
export function bugExportPath(params: Record<string, string>): string {
  const query = listQueryString(params).toString();
  return query ? `/api/reports/export/bugs?${query}` : '/api/reports/export/bugs';
}

/** Whether anything beyond the status tab narrows the list. */
export function hasFilters(search: ListSearch): boolean {
  return filterKeys.some((key) => Boolean(search[key]));
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
