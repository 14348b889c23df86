import type { Actor, BugDto } from '@bugtrail/domain';
import { Kysely, PostgresDialect } from 'kysely';
import type pg from 'pg';
import { findVisibleBugByNumber, searchVisibleBugs } from '../../bugs/bugs.queries.js';
import { withProjectRightsOf } from '../../projects/projects.queries.js';
import type { ReadModelDb } from '../../schema.js';
import type { AiToolCall, AiToolSpec } from './providers.js';

/**
 * The tools the assistant may call (api.md "The AI assistant"), answered with exactly what
 * the asking person may open: `GET /api/bugs/{id}` would answer them 200 (admins and
 * auditors every bug, testers their own reports, developers the bugs assigned to them).
 * A bug they may not open is "not found", as the API says it.
 */
export const bugTools: readonly AiToolSpec[] = [
  {
    name: 'search_bugs',
    description:
      'Search the bug tracker for bugs the user may see, by words of their title or description, or by #number. ' +
      'Answers up to 10 bugs (number, title, status, priority, severity, assignees, due date).',
    parameters: {
      type: 'object',
      properties: { query: { type: 'string', description: 'Words to look for, or a bug number like #42' } },
      required: ['query'],
    },
  },
  {
    name: 'get_bug',
    description: 'One bug by its number (#42 is 42), with its description and checklist; "not found" otherwise.',
    parameters: {
      type: 'object',
      properties: { number: { type: 'integer', description: 'The bug number' } },
      required: ['number'],
    },
  },
];

const SEARCH_LIMIT = 10;

/** One query builder per pool: the tools read the bugs read model through its own queries. */
const dbs = new WeakMap<pg.Pool, Kysely<ReadModelDb>>();
function dbOf(pool: pg.Pool): Kysely<ReadModelDb> {
  let db = dbs.get(pool);
  if (!db) dbs.set(pool, (db = new Kysely<ReadModelDb>({ dialect: new PostgresDialect({ pool }) })));
  return db;
}

const summary = (dto: BugDto) => ({
  number: dto.number,
  title: dto.title,
  status: dto.status,
  priority: dto.priority,
  severity: dto.severity,
  assignees: dto.assignedTo.map((user) => user.name),
  dueDate: dto.dueDate,
});

export async function runBugTool(pool: pg.Pool, asker: Actor, call: AiToolCall): Promise<string> {
  // The asker as the read side answers them: private projects they are no member of do not exist,
  // and their team projects' bugs are theirs to read.
  const actor: Actor = asker.hiddenProjects === undefined ? await withProjectRightsOf(dbOf(pool), asker) : asker;
  if (call.name === 'search_bugs') {
    const query = typeof call.arguments.query === 'string' ? call.arguments.query.trim().slice(0, 200) : '';
    if (!query) return JSON.stringify({ bugs: [] });
    const bugs = await searchVisibleBugs(dbOf(pool), actor, query, SEARCH_LIMIT);
    return JSON.stringify({ bugs: bugs.map(summary) });
  }
  if (call.name === 'get_bug') {
    const number = Number(call.arguments.number);
    if (!Number.isInteger(number) || number < 1) return JSON.stringify({ error: 'not found' });
    const dto = await findVisibleBugByNumber(dbOf(pool), actor, number);
    if (!dto) return JSON.stringify({ error: 'not found' });
    return JSON.stringify({
      ...summary(dto),
      description: dto.description,
      module: dto.module,
      reportedBy: dto.createdBy.name,
      createdAt: dto.createdAt,
      updatedAt: dto.updatedAt,
      checklist: dto.checklist.map((item) => ({ text: item.text, done: item.completed })),
    });
  }
  return JSON.stringify({ error: `unknown tool ${call.name}` });
}
