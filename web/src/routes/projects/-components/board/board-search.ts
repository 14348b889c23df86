import { labelList, listSearchFrom } from '../../../../components/bug-list/list-search';
import { compact, pickOne } from '../../../../lib/search';

/**
 * The board's part of the URL: the list's filters that make sense on a board, and the lanes. Kept
 * apart from the board's components: the route tree every page loads (the landing page's too)
 * reads it, and it must bring no component code with it (web/e2e/bundle.e2e.spec.ts).
 */
export type BoardSearch = {
  q?: string;
  priority?: string;
  severity?: string;
  assignee?: string;
  label?: string;
  /** Swimlanes: a row per assignee. */
  lanes?: 'assignee';
};

export const boardFilterKeys = ['q', 'priority', 'severity', 'assignee', 'label'] as const;

export function boardSearchFrom(search: Record<string, unknown>): BoardSearch {
  const list = listSearchFrom(search);
  return compact({
    q: list.q,
    priority: list.priority,
    severity: list.severity,
    assignee: list.assignee,
    label: labelList(search.label),
    lanes: pickOne(search.lanes, ['assignee'] as const),
  });
}

/** The API's query for the board: its filters (the lanes are the page's alone). */
export function boardApiParams(search: BoardSearch): Record<string, string> {
  const params: Record<string, string> = {};
  for (const key of boardFilterKeys) {
    const value = search[key];
    if (value) params[key] = value;
  }
  return params;
}
