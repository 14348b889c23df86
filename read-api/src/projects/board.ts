import {
  type BugDto,
  type BugStatus,
  NotFoundError,
  projectMessages,
  type StateDto,
  statesOr,
  toStateDto,
} from '@bugtrail/domain';
import type { AuthEnv } from '@bugtrail/platform';
import {
  countListed,
  countProjectBugs,
  findVisibleProject,
  isFilteredByProjectsOnly,
  type ListQuery,
  listBugs,
  visibleBugScope,
} from '@bugtrail/projector';
import type { Context } from 'hono';
import { listOptions, withProjectIds } from '../bugs/bugs.routes.js';
import type { ReadApiDeps } from '../deps.js';

/** Cards per column in one answer unless `limit` says otherwise (at most 100, as lists). */
export const BOARD_COLUMN_DEFAULT = 50;

export type BoardAnswer = {
  project: { _id: string; key: string; name: string };
  columns: { status: BugStatus; state: StateDto; count: number; bugs: BugDto[] }[];
};

/**
 * `GET /api/projects/{idOrKey}/board` (api.md "Board"): a column per workflow state (the three
 * statuses until the project sets its own; `status` is the state's category), each its count and
 * its first cards in rank order, with the lists' filters. The bugs are those the caller may open
 * (as `GET /api/bugs`); a column is one index range (`bugs_board`), so a project of 5,000 open
 * bugs costs what a page of 50 does. The counts come from the project's counters when nothing
 * but the project narrows the board, else from a count of the matches.
 */
export async function boardOf(c: Context<AuthEnv>, deps: ReadApiDeps): Promise<BoardAnswer> {
  const actor = c.var.actor;
  const idOrKey = c.req.param('idOrKey') ?? '';
  const row = idOrKey.length <= 100 ? await findVisibleProject(deps.db, actor, idOrKey) : null;
  if (!row) throw new NotFoundError(projectMessages.notFound);
  const asked = listOptions(c);
  const options = await withProjectIds(deps, {
    ...asked,
    filters: { ...asked.filters, projects: [row.id] },
    limit: asked.limit ?? BOARD_COLUMN_DEFAULT,
    sort: { key: 'rank', direction: 'asc' },
  });
  const base: ListQuery = { scope: visibleBugScope(actor), ...options, hiddenProjects: actor.hiddenProjects };
  const countsFromCounters =
    base.scope.kind === 'all' && isFilteredByProjectsOnly(base)
      ? countProjectBugs(deps.db, [row.id], actor.hiddenProjects)
      : null;
  const states = statesOr(row.states);
  const columns = await Promise.all(
    states.map(async (state) => {
      const status = state.category;
      // A category of one state is its status; of several, each state is its own column.
      const alone = states.filter((s) => s.category === status).length === 1;
      const query: ListQuery = {
        ...base,
        status,
        cursor: undefined,
        ...(alone ? {} : { filters: { ...base.filters, states: [state.id] } }),
      };
      const [page, count] = await Promise.all([
        listBugs(deps.db, query),
        countsFromCounters && alone
          ? countsFromCounters.then((counts) => counts.status[status])
          : countListed(deps.db, query),
      ]);
      return { status, state: toStateDto(state), count, bugs: page.bugs };
    }),
  );
  return { project: { _id: row.id, key: row.key, name: row.name }, columns };
}
