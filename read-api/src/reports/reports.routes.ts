import { statusDisplayName } from '@bugtrail/domain/vocabulary';
import { type AuthEnv, requireAuth, requireRole } from '@bugtrail/platform';
import {
  closedAtOf,
  countUserBugs,
  decodeCursor,
  defaultBugSort,
  fieldColumns,
  listBugs,
  listUsersPage,
  noUserBugCounts,
  visibleBugScope,
} from '@bugtrail/projector';
import { Hono } from 'hono';
import { type ListOptions, listOptions, withProjectIds } from '../bugs/bugs.routes.js';
import type { ReadApiDeps } from '../deps.js';
import { xlsxResponse } from './xlsx.js';

const PAGE = 1000;

const date = (iso: string | null) => (iso ? new Date(iso) : '');

/** GET /api/reports/export/bugs and /users (admin, auditor): xlsx, streamed page by page. */
export function createReportsRoutes(deps: ReadApiDeps) {
  const app = new Hono<AuthEnv>();
  app.use('*', requireAuth(deps.tokens), requireRole('admin', 'auditor'));

  /**
   * The admin's bug list as it shows (issue 40): the same filters, search and order as
   * `GET /api/bugs` (cursor pages of the list's own query, so memory stays flat), the
   * number first, then the columns people read; the id last, for tools that join on it.
   */
  app.get('/export/bugs', async (c) => {
    const options = await withProjectIds(deps, listOptions(c));
    // The bugs the caller may see (every bug: only admins and auditors reach this route).
    const scope = visibleBugScope(c.var.actor);
    // A column per custom field (issue 37), after the others: of the projects exported, else of all.
    const fields = await fieldColumns(deps.db, options.filters?.projects);
    const shown = (value: unknown) =>
      value === null || value === undefined ? '' : Array.isArray(value) ? value.join(', ') : (value as string | number);
    async function* rows() {
      let cursor: ListOptions['cursor'];
      for (;;) {
        const page = await listBugs(deps.db, { ...options, scope, limit: PAGE, cursor });
        const closed = await closedAtOf(
          deps.db,
          page.bugs.filter((b) => b.status === 'Closed').map((b) => b._id),
        );
        yield page.bugs.map((b) => ({
          number: b.number,
          title: b.title,
          status: statusDisplayName(b.status),
          priority: b.priority,
          severity: b.severity,
          module: b.module ?? '',
          reporter: b.createdBy.name,
          assignees: b.assignedTo.map((u) => u.name).join(', '),
          created: date(b.createdAt),
          due: date(b.dueDate),
          closed: closed.get(b._id) ?? '',
          description: b.description,
          id: b._id,
          labels: (b.labels ?? []).map((l) => l.name).join(', '),
          ...Object.fromEntries(fields.map((f) => [`field.${f.key}`, shown(b.fields?.[f.key])])),
        }));
        if (!page.nextCursor) return;
        cursor = decodeCursor(page.nextCursor, (options.sort ?? defaultBugSort).key) ?? undefined;
        if (!cursor) return;
      }
    }
    return xlsxResponse(
      'bug_details.xlsx',
      {
        name: 'Bugs',
        columns: [
          { header: 'Number', key: 'number', width: 10 },
          { header: 'Title', key: 'title', width: 40 },
          { header: 'Status', key: 'status', width: 12 },
          { header: 'Priority', key: 'priority', width: 10 },
          { header: 'Severity', key: 'severity', width: 10 },
          { header: 'Module', key: 'module', width: 16 },
          { header: 'Reporter', key: 'reporter', width: 24 },
          { header: 'Assignees', key: 'assignees', width: 40 },
          { header: 'Created', key: 'created', width: 22 },
          { header: 'Due', key: 'due', width: 22 },
          { header: 'Closed', key: 'closed', width: 22 },
          { header: 'Description', key: 'description', width: 60 },
          { header: 'ID', key: 'id', width: 38 },
          // Added last (issue 36): sheets made for the earlier columns keep reading them where they were.
          { header: 'Labels', key: 'labels', width: 30 },
          ...fields.map((f) => ({ header: f.name, key: `field.${f.key}`, width: 20 })),
        ],
      },
      rows(),
      deps.logger,
    );
  });

  app.get('/export/users', () => {
    async function* rows() {
      // Keyset pages on the primary key: every page is an index range, at any size.
      let after: string | null = null;
      for (;;) {
        const users = await listUsersPage(deps.db, after, PAGE);
        if (users.length === 0) return;
        const counts = await countUserBugs(
          deps.db,
          users.map((u) => u.id),
        );
        yield users.map((u) => {
          const c = counts.get(u.id) ?? noUserBugCounts;
          return {
            name: u.name,
            email: u.email,
            role: u.role,
            reported: c.createdBugs,
            assigned: c.assignedBugs,
            open: c.pendingTasks,
            inProgress: c.inProgressTasks,
            resolved: c.completedTasks,
          };
        });
        after = users[users.length - 1]!.id;
        if (users.length < PAGE) return;
      }
    }
    return xlsxResponse(
      'user_details.xlsx',
      {
        name: 'Users',
        columns: [
          { header: 'Name', key: 'name', width: 30 },
          { header: 'Email', key: 'email', width: 36 },
          { header: 'Role', key: 'role', width: 12 },
          { header: 'Reported', key: 'reported', width: 10 },
          { header: 'Assigned', key: 'assigned', width: 10 },
          { header: 'Open', key: 'open', width: 10 },
          { header: 'In Progress', key: 'inProgress', width: 12 },
          { header: 'Resolved', key: 'resolved', width: 10 },
        ],
      },
      rows(),
      deps.logger,
    );
  });

  return app;
}
