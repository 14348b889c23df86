import { type AuthEnv, requireAuth, requireRole } from '@bugtrail/platform';
import { bugPages, countUserBugs, listUsersPage, noUserBugCounts } from '@bugtrail/projector';
import { Hono } from 'hono';
import type { ReadApiDeps } from '../deps.js';
import { xlsxResponse } from './xlsx.js';

const PAGE = 1000;

const date = (iso: string | null) => (iso ? new Date(iso) : '');

/** GET /api/reports/export/bugs and /users (admin, auditor): xlsx, streamed page by page. */
export function createReportsRoutes(deps: ReadApiDeps) {
  const app = new Hono<AuthEnv>();
  app.use('*', requireAuth(deps.tokens), requireRole('admin', 'auditor'));

  app.get('/export/bugs', () => {
    async function* rows() {
      for await (const page of bugPages(deps.db, PAGE)) {
        yield page.map((b) => ({
          id: b._id,
          title: b.title,
          description: b.description,
          priority: b.priority,
          severity: b.severity,
          status: b.status,
          created: date(b.createdAt),
          due: date(b.dueDate),
          assignees: b.assignedTo.map((u) => u.name).join(', '),
          number: b.number,
        }));
      }
    }
    return xlsxResponse(
      'bug_details.xlsx',
      {
        name: 'Bugs',
        columns: [
          { header: 'ID', key: 'id', width: 38 },
          { header: 'Title', key: 'title', width: 40 },
          { header: 'Description', key: 'description', width: 60 },
          { header: 'Priority', key: 'priority', width: 10 },
          { header: 'Severity', key: 'severity', width: 10 },
          { header: 'Status', key: 'status', width: 12 },
          { header: 'Created', key: 'created', width: 22 },
          { header: 'Due', key: 'due', width: 22 },
          { header: 'Assignees', key: 'assignees', width: 40 },
          // Last, so clients reading the spec's columns by position read them where they were.
          { header: 'Number', key: 'number', width: 10 },
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
