import type { ImportSource } from '../core/event.js';
import type { BugStatus, Priority, Severity } from './bug-vocabulary.js';
import { parseSourceDay, parseSourceTime } from './import-time.js';
import { importMessages, importSourceLabels } from './import-vocabulary.js';
import { bugLimits } from './validation.js';

/**
 * One row of an export, read as the bug it becomes (docs/import.md is this module in
 * words; `import-mapping.unit.spec.ts` keeps the two in step). Pure: the CSV and JSON
 * readers hand rows in, write-api matches the people and appends.
 *
 * A row needs a title and its source id; every other value is optional, and a missing or
 * unknown one takes the spec's default (status Open, priority Medium, severity Minor). The
 * other rules for new bugs (description length, assignees) do not apply; a title or
 * description too long for a bug is cut.
 */

/** Someone an export names: matched to a user by email, then by name (or an alias), else kept by name. */
export type SourcePerson = Readonly<{ name: string; email?: string; aliases?: readonly string[] }>;

export type ImportedIssue = Readonly<{
  /** The id the issue had there: Redmine's `#`, Jira's issue key, GitHub's number. */
  sourceId: string;
  /** Orders issues as the source numbered them (see compareImportOrder). */
  order: string;
  title: string;
  description: string;
  status: BugStatus;
  priority: Priority;
  severity: Severity;
  module: string | null;
  /** ISO 8601, or null. */
  dueDate: string | null;
  reporter: SourcePerson | null;
  assignees: readonly SourcePerson[];
  /** When it was reported there; null when the source does not say (then: the import's time). */
  createdAt: string | null;
  /** When it reached its status (closed, or last updated for one in progress); null for an open bug. */
  statusChangedAt: string | null;
}>;

export type MappedRow = Readonly<{ issue: ImportedIssue }> | Readonly<{ error: string }>;
export type MappingOptions = Readonly<{ timeZone: string }>;

// ── the tables docs/import.md shows ───────────────────────────────────────────

/** Each system's status names (lower case); a name not listed is read by `statusFromWords`. */
export const importStatusMaps: Readonly<Record<ImportSource, Readonly<Record<string, BugStatus>>>> = {
  redmine: {
    new: 'Open',
    'in progress': 'In Progress',
    feedback: 'In Progress',
    resolved: 'Closed',
    closed: 'Closed',
    rejected: 'Closed',
  },
  jira: {
    open: 'Open',
    'to do': 'Open',
    backlog: 'Open',
    'selected for development': 'Open',
    reopened: 'Open',
    new: 'Open',
    'in progress': 'In Progress',
    'in review': 'In Progress',
    'code review': 'In Progress',
    'in development': 'In Progress',
    'in testing': 'In Progress',
    done: 'Closed',
    closed: 'Closed',
    resolved: 'Closed',
    "won't do": 'Closed',
    "won't fix": 'Closed',
    cancelled: 'Closed',
  },
  github: { open: 'Open', closed: 'Closed' },
};

/** Each system's priority names (lower case); others are read by `priorityWords`, else Medium. */
export const importPriorityMaps: Readonly<Record<ImportSource, Readonly<Record<string, Priority>>>> = {
  redmine: { low: 'Low', normal: 'Medium', high: 'High', urgent: 'High', immediate: 'High' },
  jira: {
    lowest: 'Low',
    low: 'Low',
    trivial: 'Low',
    minor: 'Low',
    medium: 'Medium',
    major: 'Medium',
    high: 'High',
    highest: 'High',
    critical: 'High',
    blocker: 'High',
  },
  github: {},
};

/** Priority words any system may use (GitHub's labels, custom Redmine or Jira schemes). */
export const priorityWords: Readonly<Record<string, Priority>> = {
  p0: 'High',
  p1: 'High',
  highest: 'High',
  high: 'High',
  urgent: 'High',
  immediate: 'High',
  critical: 'High',
  blocker: 'High',
  p2: 'Medium',
  medium: 'Medium',
  normal: 'Medium',
  major: 'Medium',
  p3: 'Low',
  p4: 'Low',
  low: 'Low',
  lowest: 'Low',
  minor: 'Low',
  trivial: 'Low',
};

/** Severity words: a Severity column (a custom field in Redmine or Jira) or a GitHub label. */
export const severityWords: Readonly<Record<string, Severity>> = {
  s1: 'Critical',
  sev1: 'Critical',
  critical: 'Critical',
  blocker: 'Critical',
  highest: 'Critical',
  s2: 'Major',
  sev2: 'Major',
  major: 'Major',
  high: 'Major',
  medium: 'Major',
  moderate: 'Major',
  s3: 'Minor',
  sev3: 'Minor',
  s4: 'Minor',
  sev4: 'Minor',
  minor: 'Minor',
  normal: 'Minor',
  low: 'Minor',
  lowest: 'Minor',
  trivial: 'Minor',
  cosmetic: 'Minor',
};

/** Jira's "Status Category" column, for a status name the table does not know. */
export const jiraStatusCategories: Readonly<Record<string, BugStatus>> = {
  'to do': 'Open',
  'in progress': 'In Progress',
  done: 'Closed',
};

const IN_PROGRESS_WORDS = /\b(progress|doing|review|testing|develop|started|wip|feedback|qa)\b/i;
const CLOSED_WORDS =
  /\b(done|closed?|resolved|fixed|rejected|won'?t|wontfix|duplicate|invalid|complete[d]?|cancell?ed|declined)\b/i;

/** A status name no table knows: closed when it says so (or the row has a closing time), in progress when it says so, else Open. */
export function statusFromWords(name: string, hasClosingTime: boolean): BugStatus {
  if (CLOSED_WORDS.test(name)) return 'Closed';
  if (IN_PROGRESS_WORDS.test(name)) return 'In Progress';
  return hasClosingTime ? 'Closed' : 'Open';
}

// ── columns ───────────────────────────────────────────────────────────────────

/** A CSV header: each column name (trimmed, lower case, single spaces) and where it stands; Jira repeats some. */
export type CsvColumns = ReadonlyMap<string, readonly number[]>;

const columnName = (name: string) => name.trim().toLowerCase().replace(/\s+/g, ' ');

export function csvColumns(header: readonly string[]): CsvColumns {
  const columns = new Map<string, number[]>();
  header.forEach((name, index) => {
    const key = columnName(name);
    columns.set(key, [...(columns.get(key) ?? []), index]);
  });
  return columns;
}

/** The names each value is read from, first found first (English exports; docs/import.md lists them). */
const REDMINE = {
  id: ['#', 'id'],
  title: ['subject'],
  status: ['status'],
  priority: ['priority'],
  severity: ['severity'],
  reporter: ['author'],
  reporterEmail: ['author email'],
  assignee: ['assignee', 'assigned to'],
  assigneeEmail: ['assignee email'],
  created: ['created', 'created on'],
  updated: ['updated', 'updated on'],
  closed: ['closed', 'closed on'],
  module: ['category'],
  due: ['due date'],
  description: ['description'],
} as const;

const JIRA = {
  key: ['issue key', 'key'],
  id: ['issue id', 'id'],
  title: ['summary'],
  status: ['status'],
  statusCategory: ['status category'],
  priority: ['priority'],
  severity: ['severity', 'custom field (severity)'],
  reporter: ['reporter'],
  reporterEmail: ['reporter email', 'reporter email address'],
  assignee: ['assignee'],
  assigneeEmail: ['assignee email', 'assignee email address'],
  created: ['created'],
  updated: ['updated'],
  closed: ['resolved'],
  module: ['component/s', 'components', 'component'],
  due: ['due date', 'due'],
  description: ['description'],
} as const;

/** A file-level problem with the header (400), or null when the rows can be read. */
export function checkCsvHeader(system: 'redmine' | 'jira', columns: CsvColumns): string | null {
  const has = (names: readonly string[]) => names.some((n) => columns.has(n));
  const needed =
    system === 'redmine'
      ? [
          { names: REDMINE.title, shown: '"Subject"' },
          { names: REDMINE.id, shown: '"#"' },
        ]
      : [
          { names: JIRA.title, shown: '"Summary"' },
          { names: [...JIRA.key, ...JIRA.id], shown: '"Issue key" or "Issue id"' },
        ];
  const missing = needed.filter((column) => !has(column.names)).map((column) => `${column.shown} column`);
  if (missing.length === 0) return null;
  return `This is not a ${importSourceLabels[system]} CSV export: it has no ${missing.join(' and no ')}`;
}

// ── rows ──────────────────────────────────────────────────────────────────────

type Cells = Readonly<{ first(names: readonly string[]): string; all(names: readonly string[]): string[] }>;

function cellsOf(columns: CsvColumns, values: readonly string[]): Cells {
  const all = (names: readonly string[]) =>
    names.flatMap((n) => (columns.get(n) ?? []).map((i) => clean(values[i] ?? '').trim())).filter(Boolean);
  return { all, first: (names) => all(names)[0] ?? '' };
}

export function mapCsvRow(
  system: 'redmine' | 'jira',
  columns: CsvColumns,
  values: readonly string[],
  options: MappingOptions,
): MappedRow {
  const cells = cellsOf(columns, values);
  if (values.length !== countColumns(columns)) {
    return { error: `The row has ${values.length} fields; the header has ${countColumns(columns)}` };
  }
  return system === 'redmine' ? mapRedmine(cells, options) : mapJira(cells, options);
}

const countColumns = (columns: CsvColumns) => [...columns.values()].reduce((n, at) => n + at.length, 0);

function mapRedmine(cells: Cells, options: MappingOptions): MappedRow {
  const id = cells.first(REDMINE.id).replace(/^#/, '');
  if (!id) return { error: importMessages.idRequired };
  const times = readTimes(cells, REDMINE, options);
  if ('error' in times) return times;
  return finish('redmine', {
    sourceId: id,
    order: id,
    ref: `#${id}`,
    title: cells.first(REDMINE.title),
    description: cells.first(REDMINE.description),
    status: statusOf('redmine', cells.first(REDMINE.status), times.closed !== null),
    priority: priorityOf('redmine', cells.first(REDMINE.priority)),
    severity: severityOf(cells.first(REDMINE.severity)),
    module: cells.first(REDMINE.module),
    due: cells.first(REDMINE.due),
    reporter: personOf(cells.first(REDMINE.reporter), cells.first(REDMINE.reporterEmail)),
    assignees: [personOf(cells.first(REDMINE.assignee), cells.first(REDMINE.assigneeEmail))],
    times,
    options,
  });
}

function mapJira(cells: Cells, options: MappingOptions): MappedRow {
  const key = cells.first(JIRA.key);
  const numericId = cells.first(JIRA.id);
  const sourceId = key || numericId;
  if (!sourceId) return { error: importMessages.idRequired };
  const times = readTimes(cells, JIRA, options);
  if ('error' in times) return times;
  const statusName = cells.first(JIRA.status);
  // A name the table knows; else the column Jira gives each status's kind; else the words.
  const status =
    importStatusMaps.jira[statusName.toLowerCase()] ??
    jiraStatusCategories[cells.first(JIRA.statusCategory).toLowerCase()] ??
    statusOf('jira', statusName, times.closed !== null);
  return finish('jira', {
    sourceId,
    // Jira's numeric ids grow with creation across projects; keys only within one.
    order: /^\d+$/.test(numericId) ? numericId : sourceId,
    ref: sourceId,
    title: cells.first(JIRA.title),
    description: cells.first(JIRA.description),
    status,
    priority: priorityOf('jira', cells.first(JIRA.priority)),
    severity: severityOf(cells.first(JIRA.severity)),
    module: cells.first(JIRA.module),
    due: cells.first(JIRA.due),
    reporter: personOf(cells.first(JIRA.reporter), cells.first(JIRA.reporterEmail)),
    assignees: [personOf(cells.first(JIRA.assignee), cells.first(JIRA.assigneeEmail))],
    times,
    options,
  });
}

/** `gh issue list --json number,title,body,state,labels,createdAt,closedAt,author,assignees`: one element. */
export function mapGithubIssue(value: unknown, options: MappingOptions): MappedRow {
  if (!isRecord(value)) return { error: 'Not an issue: each element must be an object' };
  const number = value.number;
  if (typeof number !== 'number' && typeof number !== 'string') return { error: importMessages.idRequired };
  const sourceId = String(number).trim();
  if (!/^\d+$/.test(sourceId)) return { error: `The issue number "${clean(sourceId).slice(0, 40)}" is not a number` };
  const created = parseSourceTime(text(value.createdAt), options.timeZone);
  if (created === undefined) return { error: notATime('createdAt', text(value.createdAt)) };
  const closed = parseSourceTime(text(value.closedAt), options.timeZone);
  if (closed === undefined) return { error: notATime('closedAt', text(value.closedAt)) };
  const labels = (Array.isArray(value.labels) ? value.labels : [])
    .map((label) => clean(isRecord(label) ? text(label.name) : text(label)).trim())
    .filter(Boolean);
  const hints = labelHints(labels);
  const state = text(value.state).trim().toLowerCase();
  const open = state ? state === 'open' : closed === null;
  return finish('github', {
    sourceId,
    order: sourceId,
    ref: `#${sourceId}`,
    title: clean(text(value.title)).trim(),
    description: clean(text(value.body)).trim(),
    status: open ? (hints.inProgress ? 'In Progress' : 'Open') : 'Closed',
    priority: hints.priority ?? 'Medium',
    severity: hints.severity ?? 'Minor',
    module: hints.module ?? '',
    due: '',
    reporter: githubPerson(value.author),
    assignees: (Array.isArray(value.assignees) ? value.assignees : []).map(githubPerson),
    times: { created, closed, updated: null, due: null },
    options,
  });
}

type Times = { created: string | null; updated: string | null; closed: string | null; due: string | null };

function readTimes(
  cells: Cells,
  names: { created: readonly string[]; updated: readonly string[]; closed: readonly string[]; due: readonly string[] },
  options: MappingOptions,
): Times | { error: string } {
  const times: Times = { created: null, updated: null, closed: null, due: null };
  for (const field of ['created', 'updated', 'closed'] as const) {
    const raw = cells.first(names[field]);
    const parsed = parseSourceTime(raw, options.timeZone);
    if (parsed === undefined) return { error: notATime(names[field][0]!, raw) };
    times[field] = parsed;
  }
  const due = cells.first(names.due);
  const day = parseSourceDay(due, options.timeZone);
  if (day === undefined) return { error: notATime(names.due[0]!, due) };
  times.due = day;
  return times;
}

const notATime = (column: string, raw: string) =>
  `${column[0]!.toUpperCase()}${column.slice(1)}: "${clean(raw).slice(0, 40)}" is not a date`;

function finish(
  system: ImportSource,
  row: {
    sourceId: string;
    order: string;
    ref: string;
    title: string;
    description: string;
    status: BugStatus;
    priority: Priority;
    severity: Severity;
    module: string;
    due: string;
    reporter: SourcePerson | null;
    assignees: readonly (SourcePerson | null)[];
    times: Times;
    options: MappingOptions;
  },
): MappedRow {
  const title = row.title.replace(/\s+/g, ' ').trim();
  if (!title) return { error: importMessages.titleRequired };
  const { created, updated, closed } = row.times;
  const changedAt =
    row.status === 'Closed'
      ? (closed ?? updated ?? created)
      : row.status === 'In Progress'
        ? (updated ?? created)
        : null;
  const assignees = new Map<string, SourcePerson>();
  for (const person of row.assignees) if (person) assignees.set(personKey(person), person);
  return {
    issue: {
      sourceId: cut(row.sourceId, 200),
      order: row.order,
      title: cut(title, bugLimits.titleMax),
      description: cut(row.description, bugLimits.descriptionMax) || emptyDescription(system, row.ref),
      status: row.status,
      priority: row.priority,
      severity: row.severity,
      module: cut(row.module.replace(/\s+/g, ' ').trim(), bugLimits.moduleMax) || null,
      dueDate: row.times.due,
      reporter: row.reporter,
      assignees: [...assignees.values()],
      createdAt: created,
      // Never before the report: an export's clocks may disagree.
      statusChangedAt: changedAt && created && changedAt < created ? created : changedAt,
    },
  };
}

/** What an imported bug without a description says instead (a bug's description is never empty). */
export const emptyDescription = (system: ImportSource, ref: string) =>
  `Imported from ${importSourceLabels[system]} ${ref}, which had no description.`;

function statusOf(system: ImportSource, name: string, hasClosingTime: boolean): BugStatus {
  if (!name) return hasClosingTime ? 'Closed' : 'Open';
  return importStatusMaps[system][name.toLowerCase()] ?? statusFromWords(name, hasClosingTime);
}

function priorityOf(system: ImportSource, name: string): Priority {
  const word = name.trim().toLowerCase();
  return importPriorityMaps[system][word] ?? priorityWords[word] ?? 'Medium';
}

function severityOf(name: string): Severity {
  return severityWords[name.trim().toLowerCase()] ?? 'Minor';
}

/** "Jane Doe", "jane@example.com" or "Jane Doe <jane@example.com>", and an email column when there is one. */
function personOf(value: string, emailColumn: string): SourcePerson | null {
  const named = /^(.*?)\s*<([^<>\s]+@[^<>\s]+)>$/.exec(value);
  const name = (named ? named[1]! : value).trim();
  const email = emailColumn || named?.[2] || (isEmail(name) ? name : '');
  if (!name && !email) return null;
  return { name: name || email, ...(email && isEmail(email) ? { email: email.toLowerCase() } : {}) };
}

/** `{ login, name }`: the name when GitHub has one, the login as an alias (and the name when not). */
function githubPerson(value: unknown): SourcePerson | null {
  if (!isRecord(value)) return null;
  const login = clean(text(value.login)).trim();
  const name = clean(text(value.name)).trim();
  if (!login && !name) return null;
  return { name: name || login, ...(login && name ? { aliases: [login] } : {}) };
}

const personKey = (p: SourcePerson) => (p.email ?? p.name).toLowerCase();
const isEmail = (text: string) => /^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(text);

type LabelHints = { priority?: Priority; severity?: Severity; module?: string; inProgress?: boolean };

/**
 * GitHub has labels, not fields: "priority: high", "P1", "severity/critical", "S2",
 * "critical", "module: billing" (also "area:" or "component:"), "in progress".
 */
export function labelHints(labels: readonly string[]): LabelHints {
  const hints: LabelHints = {};
  for (const label of labels) {
    const name = label.toLowerCase().replace(/\s+/g, ' ').trim();
    const prefixed = /^(priority|prio|severity|sev|status|module|area|component)\s*[:/_-]\s*(.+)$/.exec(name);
    const suffixed = /^(.+?) (priority|severity)$/.exec(name);
    const [kind, word] = prefixed ? [prefixed[1]!, prefixed[2]!] : suffixed ? [suffixed[2]!, suffixed[1]!] : ['', name];
    if (kind === 'priority' || kind === 'prio' || (!kind && /^p[0-4]$/.test(word))) {
      hints.priority ??= priorityWords[word];
    } else if (kind === 'severity' || kind === 'sev' || (!kind && /^(s[1-4]|critical|blocker)$/.test(word))) {
      hints.severity ??= severityWords[word];
    } else if (kind === 'module' || kind === 'area' || kind === 'component') {
      hints.module ??= label.slice(label.length - word.length).trim();
    } else if ((kind === 'status' || !kind) && /^(in[ -]?progress|wip|doing)$/.test(word)) {
      hints.inProgress = true;
    }
  }
  return hints;
}

/** Natural order of source ids: numbers as numbers ("PROJ-9" before "PROJ-10"). */
export function compareImportOrder(a: string, b: string): number {
  const pa = a.match(/\d+|\D+/g) ?? [];
  const pb = b.match(/\d+|\D+/g) ?? [];
  for (let i = 0; i < Math.min(pa.length, pb.length); i++) {
    const x = pa[i]!;
    const y = pb[i]!;
    if (x === y) continue;
    const nx = /^\d/.test(x);
    const ny = /^\d/.test(y);
    if (nx && ny) {
      const [vx, vy] = [x.replace(/^0+/, ''), y.replace(/^0+/, '')];
      if (vx.length !== vy.length) return vx.length - vy.length;
      if (vx !== vy) return vx < vy ? -1 : 1;
      continue;
    }
    return x < y ? -1 : 1;
  }
  return pa.length - pb.length || (a < b ? -1 : a > b ? 1 : 0);
}

/** Text as a bug may hold it: no NUL (PostgreSQL's jsonb refuses it), no unpaired surrogate, lines ending in \n. */
export function clean(value: string): string {
  return value
    .replaceAll('\u0000', '')
    .replace(/\r\n?/g, '\n')
    .replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD');
}

const cut = (value: string, max: number) => (value.length <= max ? value : `${value.slice(0, max - 1).trimEnd()}…`);
const text = (value: unknown): string =>
  typeof value === 'string' ? value : typeof value === 'number' ? String(value) : '';
const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
