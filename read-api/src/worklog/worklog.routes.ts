import { once } from 'node:events';
import { PassThrough, Readable } from 'node:stream';
import { isCalendarDay, ValidationError } from '@bugtrail/domain';
import { type AuthEnv, readQuery, requireAuth } from '@bugtrail/platform';
import { type WorklogFilter, worklogEntries, worklogTotals } from '@bugtrail/projector';
import { stringify } from 'csv-stringify';
import { type Context, Hono } from 'hono';
import { z } from 'zod';
import type { ReadApiDeps } from '../deps.js';
import { withProjectRights } from '../projects/project-rights.js';
import { projectFilter } from '../query-values.js';
import { neutralise, xlsxResponse } from '../reports/xlsx.js';

/** At most this many entries in one answer (the totals count them all); exports page through every one. */
export const WORKLOG_ANSWER_MAX = 1000;
const PAGE = 1000;

const day = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a day (YYYY-MM-DD)')
  .refine(isCalendarDay, 'must be a real day');

export const worklogQuery = z.object({
  from: day.optional().describe('The first day (YYYY-MM-DD); default: 6 days before `to`'),
  to: day.optional().describe('The last day (YYYY-MM-DD), included; default: today (UTC)'),
  project: z.string().max(500).optional().describe('Projects by key or `_id`; several: comma-separated or repeated'),
  user: z.string().max(2000).optional().describe('People by `_id`; several: comma-separated or repeated'),
  bug: z.string().max(100).optional().describe('One bug’s entries (by `_id`)'),
  format: z.enum(['xlsx', 'csv'], { error: 'format must be xlsx or csv' }).optional(),
});

const todayUtc = () => new Date().toISOString().slice(0, 10);
const minusDays = (d: string, n: number) =>
  new Date(Date.parse(`${d}T00:00:00Z`) - n * 86_400_000).toISOString().slice(0, 10);

/** The range and narrowing of a timesheet from its query string; 400 for anything malformed. */
async function filterOf(c: Context<AuthEnv>, deps: ReadApiDeps): Promise<WorklogFilter> {
  const query = readQuery(c, worklogQuery);
  // One bug's entries: every day unless a range is asked for.
  const to = query.to ?? (query.bug ? '9999-12-31' : todayUtc());
  const from = query.from ?? (query.bug ? '0001-01-01' : minusDays(to, 6));
  if (from > to) throw ValidationError.field('from', 'from must not be after to');
  const users = (c.req.queries('user') ?? [])
    .flatMap((v) => v.split(','))
    .map((v) => v.trim())
    .filter(Boolean);
  return {
    from,
    to,
    projects: await projectFilter(c, deps),
    ...(users.length > 0 ? { users: users.slice(0, 100) } : {}),
    ...(query.bug ? { bugId: query.bug } : {}),
  };
}

/**
 * `GET /api/worklog?from=&to=&project=&user=&bug=` (api.md "time"): the entries of the bugs the
 * caller may open in the range, day by day, with `totals { minutes, byUser, byProject }`.
 */
export function createWorklogRoutes(deps: ReadApiDeps) {
  const app = new Hono<AuthEnv>();
  app.use('*', requireAuth(deps.tokens), withProjectRights(deps));
  app.get('/', async (c) => {
    const filter = await filterOf(c, deps);
    const actor = c.var.actor;
    const [entries, totals] = await Promise.all([
      worklogEntries(deps.db, actor, filter, { limit: WORKLOG_ANSWER_MAX + 1 }),
      worklogTotals(deps.db, actor, filter),
    ]);
    return c.json({
      from: filter.from,
      to: filter.to,
      entries: entries.slice(0, WORKLOG_ANSWER_MAX),
      truncated: entries.length > WORKLOG_ANSWER_MAX,
      totals,
    });
  });
  return app;
}

const columns = [
  { header: 'Day', key: 'on', width: 12 },
  { header: 'Person', key: 'person', width: 24 },
  { header: 'Project', key: 'project', width: 12 },
  { header: 'Bug', key: 'bug', width: 12 },
  { header: 'Title', key: 'title', width: 40 },
  { header: 'Minutes', key: 'minutes', width: 10 },
  { header: 'Hours', key: 'hours', width: 10 },
  { header: 'Note', key: 'note', width: 40 },
];

/**
 * `GET /api/reports/export/worklog` (api.md "time"): the timesheet as `GET /api/worklog` reads
 * it, every entry, as xlsx (default) or `format=csv`, streamed page by page in flat memory.
 */
export function createWorklogExportRoutes(deps: ReadApiDeps) {
  const app = new Hono<AuthEnv>();
  app.use('/export/worklog', requireAuth(deps.tokens), withProjectRights(deps));
  app.get('/export/worklog', async (c) => {
    const filter = await filterOf(c, deps);
    const format = readQuery(c, worklogQuery).format ?? 'xlsx';
    const actor = c.var.actor;
    async function* pages() {
      let after: { on: string; id: string } | undefined;
      for (;;) {
        const page = await worklogEntries(deps.db, actor, filter, { limit: PAGE, after });
        yield page.map((e) => ({
          on: e.on,
          person: e.user.name,
          project: e.project.key,
          bug: e.bug.key ?? e.bug._id,
          title: e.bug.title,
          minutes: e.minutes,
          hours: Math.round((e.minutes / 60) * 100) / 100,
          note: e.note,
        }));
        if (page.length < PAGE) return;
        const last = page[page.length - 1]!;
        after = { on: last.on, id: last._id };
      }
    }
    const name = `worklog_${filter.from}_${filter.to}`.replace(/[^\w-]/g, '_');
    if (format === 'xlsx') return xlsxResponse(`${name}.xlsx`, { name: 'Worklog', columns }, pages(), deps.logger);
    return csvResponse(`${name}.csv`, pages(), deps);
  });
  return app;
}

/** The same rows as CSV (csv-stringify), each cell neutralised as the xlsx's are, streamed with backpressure. */
function csvResponse(filename: string, pages: AsyncIterable<Record<string, unknown>[]>, deps: ReadApiDeps): Response {
  const out = new PassThrough({ highWaterMark: 256 * 1024 });
  const csv = stringify({ header: true, columns: columns.map((c) => ({ key: c.key, header: c.header })) });
  csv.pipe(out);
  const fill = async () => {
    for await (const page of pages) {
      for (const row of page) {
        const safe: Record<string, unknown> = {};
        for (const [key, value] of Object.entries(row)) safe[key] = neutralise(value);
        if (!csv.write(safe)) await Promise.race([once(csv, 'drain'), once(out, 'close')]);
        if (out.destroyed) return;
      }
    }
    csv.end();
  };
  fill().catch((error: unknown) => {
    deps.logger.error('export failed', { error, filename });
    out.destroy(error as Error);
  });
  return new Response(Readable.toWeb(out) as ReadableStream, {
    status: 200,
    headers: {
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': `attachment; filename="${filename}"`,
      'Cache-Control': 'no-store',
      'X-Content-Type-Options': 'nosniff',
    },
  });
}
