import {
  type BugDto,
  type BugState,
  bugMessages,
  bugPermissions,
  coversBugScope,
  evolveBugWith,
  ForbiddenError,
  isHiddenFrom,
  NotFoundError,
  parseBugKey,
  parseStatusFilter,
  priorities,
  type Role,
  severities,
  streams,
  ValidationError,
} from '@bugtrail/domain';
import { type AuthEnv, readQuery, requireAuth, requireRole } from '@bugtrail/platform';
import {
  answered,
  type BugCounts,
  type BugScope,
  type BugSort,
  type BugSortKey,
  countBugs,
  countBugsAsOf,
  countBugsIn,
  countListed,
  countProjectBugs,
  decodeCursor,
  defaultBugSort,
  fieldsWithKeys,
  findBug,
  findBugByNumber,
  findBugByProjectNumber,
  findUser,
  findVisibleProject,
  isFiltered,
  isFilteredByProjectsOnly,
  isInBugScope,
  type ListFilters,
  type ListQuery,
  listBugs,
  listedBugScope,
  newestBugIdsAsOf,
  resolveLabels,
  resolveProjectIds,
  scopeKey,
  suggestionUsage,
  suggestionUsageAsOf,
  visibleBugScope,
} from '@bugtrail/projector';
import { type Context, Hono } from 'hono';
import { effectiveAsOf } from '../as-of.js';
import type { ReadApiDeps } from '../deps.js';
import { withProjectRights } from '../projects/project-rights.js';
import { filterValues, projectFilter } from '../query-values.js';
import { createBugFileReadRoutes } from './bug-files.routes.js';
import { dashboardQuery, historyQuery, listQuery } from './bugs.schemas.js';
import { createBugCommentsRoutes } from './comments.routes.js';
import { compareBug } from './compare.js';
import { bugAt, bugHistory } from './history.js';
import { dashboardAnswer, statusSummary, toListRow } from './shapes.js';

export const LIST_LIMIT_MAX = 100;

export type ListOptions = Omit<ListQuery, 'scope'>;

/** Each value one of `allowed` (any case); 400 for anything else. */
function wordList<T extends string>(values: string[], allowed: readonly T[], field: string): T[] | undefined {
  if (values.length === 0) return undefined;
  return values.map((part) => {
    const word = allowed.find((a) => a.toLowerCase() === part.toLowerCase());
    if (!word) throw ValidationError.field(field, `${field} must be ${allowed.join(', ')}`);
    return word;
  });
}

const orNone = <T>(values: T[] | undefined) => (values && values.length > 0 ? values : undefined);

const startOfTodayUtc = () => {
  const d = new Date();
  return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate())).toISOString();
};

/** Filters, order, search and paging from the query string; 400 for anything malformed. */
export function listOptions(c: Context): ListOptions {
  const query = readQuery(c, listQuery);
  // One status as the spec sends it, or several (comma-separated or the parameter repeated).
  const statusParts = filterValues(c, 'status');
  const statuses = [...new Set(statusParts.map((part) => parseStatusFilter(part)).filter((s) => s !== null))];
  if (statusParts.length === 0) parseStatusFilter(query.status);
  const sort: BugSort = query.sort
    ? query.sort.startsWith('-')
      ? { key: query.sort.slice(1) as BugSortKey, direction: 'desc' }
      : { key: query.sort as BugSortKey, direction: 'asc' }
    : defaultBugSort;
  // `field.<key>=value` (repeated: any of them), one filter per key: every key must match.
  const fieldFilters = Object.keys(c.req.queries())
    .filter((name) => name.startsWith('field.'))
    .slice(0, 20)
    .map((name) => ({ key: name.slice('field.'.length), values: filterValues(c, name, true, 200), fields: [] }))
    .filter((f) => f.values.length > 0);
  let cursor: ListOptions['cursor'];
  if (query.cursor) {
    const decoded = decodeCursor(query.cursor, sort.key);
    if (!decoded) throw ValidationError.field('cursor', 'Invalid cursor');
    cursor = decoded;
  }
  const filters: ListFilters = {
    statuses: statuses.length > 1 ? statuses : undefined,
    priorities: wordList(filterValues(c, 'priority'), priorities, 'priority'),
    severities: wordList(filterValues(c, 'severity'), severities, 'severity'),
    assignees: orNone(filterValues(c, 'assignee')),
    reporters: orNone(filterValues(c, 'reporter')),
    projects: orNone(filterValues(c, 'project')),
    modules: orNone(filterValues(c, 'module', true, 50)),
    due: query.due,
    today: startOfTodayUtc(),
    archived: query.archived === 'true',
    triage: query.triage === 'true',
    labels: orNone(filterValues(c, 'label')),
    milestones: orNone(filterValues(c, 'milestone')),
    parents: orNone(filterValues(c, 'parent')),
    fields: orNone(fieldFilters),
    states: orNone(filterValues(c, 'state')),
    sla: query.sla,
  };
  return {
    ...(statuses.length === 1 ? { status: statuses[0] } : {}),
    filters,
    sort,
    ...(query.q ? { q: query.q } : {}),
    ...(query.limit !== undefined ? { limit: Math.min(query.limit, LIST_LIMIT_MAX) } : {}),
    ...(cursor ? { cursor } : {}),
  };
}

/** The options with their project filter (keys or ids, as `listOptions` read them) as the ids the list's SQL takes. */
export async function withProjectIds(deps: Pick<ReadApiDeps, 'db'>, options: ListOptions): Promise<ListOptions> {
  const projects = options.filters?.projects;
  const labels = options.filters?.labels;
  const fieldFilters = options.filters?.fields;
  const sortKey = options.sort?.key.startsWith('field.') ? options.sort.key.slice('field.'.length) : undefined;
  if (!projects?.length && !labels?.length && !fieldFilters?.length && !sortKey) return options;
  const fieldKeys = [...new Set([...(fieldFilters ?? []).map((f) => f.key), ...(sortKey ? [sortKey] : [])])];
  const [projectIds, labelIds, keyed] = await Promise.all([
    projects?.length ? resolveProjectIds(deps.db, projects) : undefined,
    // A name no label has matches no bug.
    labels?.length ? resolveLabels(deps.db, labels).then((ids) => ids.map((id) => id ?? '')) : undefined,
    // A key no project's field has matches no bug (and sorts every bug as having no value).
    fieldKeys.length > 0 ? fieldsWithKeys(deps.db, fieldKeys) : [],
  ]);
  return {
    ...options,
    ...(sortKey ? { sortFields: keyed.filter((k) => k.field.key === sortKey) } : {}),
    filters: {
      ...options.filters,
      ...(projectIds ? { projects: projectIds } : {}),
      ...(labelIds ? { labels: labelIds } : {}),
      ...(fieldFilters?.length
        ? { fields: fieldFilters.map((f) => ({ ...f, fields: keyed.filter((k) => k.field.key === f.key) })) }
        : {}),
    },
  };
}

/**
 * One page and, when paged, the whole list's size: from the counters when only a status
 * narrows the scope (no count over the table per page), else a count of the matches.
 */
async function list(
  c: Context,
  deps: ReadApiDeps,
  scope: BugScope,
  options: ListOptions,
  scopeCounts?: Promise<BugCounts>,
) {
  const query: ListQuery = {
    scope,
    ...(await withProjectIds(deps, options)),
    hiddenProjects: c.var.actor.hiddenProjects,
  };
  const [page, total] = await Promise.all([
    listBugs(deps.db, query),
    options.limit === undefined ? Promise.resolve(undefined) : listTotal(deps, query, scopeCounts),
  ]);
  if (page.nextCursor) c.header('X-Next-Cursor', page.nextCursor);
  if (total !== undefined) c.header('X-Total-Count', String(total));
  return { ...page, total };
}

/**
 * `scopeCounts`: the counters of the list's scope (less the caller's hidden projects), when the
 * caller reads them anyway.
 */
async function listTotal(deps: ReadApiDeps, query: ListQuery, scopeCounts?: Promise<BugCounts>): Promise<number> {
  if (query.scope.kind === 'all' && isFilteredByProjectsOnly(query)) {
    const { status } = await countProjectBugs(deps.db, query.filters?.projects ?? [], query.hiddenProjects);
    return query.status ? status[query.status] : status.Open + status['In Progress'] + status.Closed;
  }
  if (isFiltered(query)) return countListed(deps.db, query);
  const { status } = await (scopeCounts ?? countBugs(deps.db, query.scope, query.hiddenProjects));
  return query.status ? status[query.status] : status.Open + status['In Progress'] + status.Closed;
}

/** GET /api/bugs and everything under it. */
export function createBugsRoutes(deps: ReadApiDeps) {
  const app = new Hono<AuthEnv>();
  app.use('*', requireAuth(deps.tokens), withProjectRights(deps));
  app.route('/', createBugFileReadRoutes(deps));
  app.route('/', createBugCommentsRoutes(deps));

  const withSummary = async (
    c: Context<AuthEnv>,
    listScope: BugScope,
    summaryScope: BugScope,
    /** What the caller may open, when the list shows more: the rest are rows only. */
    detailScope?: BugScope,
  ) => {
    const options: ListOptions = { ...listOptions(c), descriptionsOf: detailScope };
    // The summary's counters also give the page's total when both cover the same bugs: one read, not two.
    const summary = countBugs(deps.db, summaryScope, c.var.actor.hiddenProjects);
    const sameScope = scopeKey(listScope) === scopeKey(summaryScope);
    const [page, counts] = await Promise.all([
      list(c, deps, listScope, options, sameScope ? summary : undefined),
      summary,
    ]);
    const mine = (bug: BugDto) =>
      detailScope === undefined ||
      isInBugScope(detailScope, {
        reporterId: bug.createdBy._id,
        assigneeIds: bug.assignedTo.map((u) => u._id),
        projectId: bug.projectId,
      });
    return c.json({
      bugs: page.bugs.map((bug) => (mine(bug) ? bug : toListRow(bug))),
      statusSummary: statusSummary(counts),
      ...(options.limit !== undefined ? { nextCursor: page.nextCursor, total: page.total } : {}),
    });
  };

  app.get('/', (c) => withSummary(c, visibleBugScope(c.var.actor), visibleBugScope(c.var.actor)));

  // A tester's all-bugs table lists every bug (rows only: the detail stays theirs).
  app.get('/all-viewable', (c) => {
    const actor = c.var.actor;
    const scope = listedBugScope(actor);
    const visible = visibleBugScope(actor);
    // Rows beyond what they may open show no description (nor match a search by it).
    return withSummary(c, scope, scope, scopeKey(scope) === scopeKey(visible) ? undefined : visible);
  });

  app.get('/assigned', requireRole('developer', 'admin', 'auditor'), async (c) => {
    const page = await list(c, deps, { kind: 'assignee', id: c.var.actor.id }, listOptions(c));
    return c.json(page.bugs);
  });

  app.get('/user/:id', async (c) => {
    const actor = c.var.actor;
    const userId = c.req.param('id');
    // Only whoever may open every bug the person reported: admins and auditors, a tester their own.
    const reported: BugScope = { kind: 'reporter', id: userId };
    if (!coversBugScope(visibleBugScope(actor), reported)) {
      throw new ForbiddenError("You don't have permission to view these bugs");
    }
    if (!(await findUser(deps.db, userId))) throw new NotFoundError('User not found');
    const page = await list(c, deps, reported, listOptions(c));
    return c.json(page.bugs);
  });

  const dashboard = (role: Role) => async (c: Context<AuthEnv>) => {
    const scope = visibleBugScope(c.var.actor);
    const hidden = c.var.actor.hiddenProjects ?? [];
    const { asOf } = readQuery(c, dashboardQuery);
    // api.md "Projects": a dashboard takes `project` (key or id, repeatable) as lists do.
    const projects = await projectFilter(c, deps);
    if (asOf) {
      // As it was then: counts from the stays, the newest bugs folded from their streams up to then.
      const at = effectiveAsOf(asOf);
      const [counts, ids] = await Promise.all([
        countBugsAsOf(deps.db, scope, at, hidden, projects),
        newestBugIdsAsOf(deps.db, scope, at, 10, hidden, projects),
      ]);
      const [then, suggestions] = await Promise.all([
        Promise.all(ids.map(async (id) => bugAt(deps, await deps.store.readStream(streams.bug(id)), at.toISOString()))),
        role === 'admin' ? suggestionUsageAsOf(deps.db, at) : undefined,
      ]);
      return c.json({
        ...dashboardAnswer(
          role,
          counts,
          then.filter((b): b is BugDto => b !== null),
        ),
        ...(suggestions ? { suggestions } : {}),
      });
    }
    const [counts, recent, suggestions] = await Promise.all([
      projects ? countBugsIn(deps.db, scope, projects, hidden) : countBugs(deps.db, scope, hidden),
      listBugs(deps.db, { scope, limit: 10, hiddenProjects: hidden, ...(projects ? { filters: { projects } } : {}) }),
      role === 'admin' ? suggestionUsage(deps.db) : undefined,
    ]);
    return c.json({ ...dashboardAnswer(role, counts, recent.bugs), ...(suggestions ? { suggestions } : {}) });
  };
  // Auditors read the admin's dashboard (api.md "The auditor role").
  app.get('/admin-dashboard', requireRole('admin', 'auditor'), dashboard('admin'));
  app.get('/tester-dashboard', requireRole('tester'), dashboard('tester'));
  app.get('/developer-dashboard', requireRole('developer'), dashboard('developer'));

  app.get('/:id/history', async (c) => {
    const actor = c.var.actor;
    const id = c.req.param('id');
    const events = await deps.store.readStream(streams.bug(id));
    let state: BugState = { kind: 'empty' };
    for (const e of events) state = evolveBugWith(state, e);
    if (
      state.kind !== 'reported' ||
      isHiddenFrom(actor, state) ||
      (state.deleted && !bugPermissions.canViewHistory(actor, state))
    ) {
      throw new NotFoundError(bugMessages.notFound);
    }
    if (!bugPermissions.canViewHistory(actor, state)) throw new ForbiddenError(bugMessages.noPermissionToView);
    // Who may see the bug first: a stranger learns nothing from how their query is refused.
    const query = readQuery(c, historyQuery);
    if (query.from !== undefined || query.to !== undefined) return c.json(await compareBug(deps, events, query));
    if (query.at) {
      const then = await bugAt(deps, events, query.at);
      if (!then) throw new NotFoundError('Bug did not exist at that time');
      return c.json(then);
    }
    return c.json(await bugHistory(deps, id, events));
  });

  // api.md "Bug numbers": the same answer and permissions as by id; anything but a number names no bug.
  app.get('/by-number/:n', async (c) => {
    const raw = c.req.param('n');
    const number = /^\d{1,9}$/.test(raw) ? Number(raw) : 0;
    const row = number > 0 ? await findBugByNumber(deps.db, number) : null;
    if (!row || row.deleted || isHiddenFrom(c.var.actor, row)) throw new NotFoundError(bugMessages.notFound);
    if (!bugPermissions.canView(c.var.actor, row)) throw new ForbiddenError(bugMessages.noPermissionToView);
    return c.json(answered(row.dto, c.var.actor.hiddenProjects ?? [], new Date()));
  });

  // api.md "Projects": `WEB-7` (and any key the bug or its project had) answers as by id; a
  // private project's keys name nothing for those who cannot see it.
  app.get('/by-key/:key', async (c) => {
    const key = parseBugKey(c.req.param('key'));
    const project = key ? await findVisibleProject(deps.db, c.var.actor, key.key) : null;
    const row = key && project ? await findBugByProjectNumber(deps.db, project.id, key.number) : null;
    if (!row || row.deleted || isHiddenFrom(c.var.actor, row)) throw new NotFoundError(bugMessages.notFound);
    if (!bugPermissions.canView(c.var.actor, row)) throw new ForbiddenError(bugMessages.noPermissionToView);
    return c.json(answered(row.dto, c.var.actor.hiddenProjects ?? [], new Date()));
  });

  app.get('/:id', async (c) => {
    const row = await findBug(deps.db, c.req.param('id'));
    if (!row || row.deleted || isHiddenFrom(c.var.actor, row)) throw new NotFoundError(bugMessages.notFound);
    if (!bugPermissions.canView(c.var.actor, row)) throw new ForbiddenError(bugMessages.noPermissionToView);
    return c.json(answered(row.dto, c.var.actor.hiddenProjects ?? [], new Date()));
  });

  return app;
}

export type { BugCounts };
