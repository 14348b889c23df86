import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  checkCsvHeader,
  compareImportOrder,
  csvColumns,
  type ImportedIssue,
  importPriorityMaps,
  importStatusMaps,
  labelHints,
  type MappedRow,
  mapCsvRow,
  mapGithubIssue,
  severityWords,
} from './import-mapping.js';

const utc = { timeZone: 'UTC' };

const REDMINE_HEADER = [
  '#',
  'Project',
  'Tracker',
  'Status',
  'Priority',
  'Subject',
  'Author',
  'Assignee',
  'Updated',
  'Category',
  'Due date',
  'Created',
  'Closed',
  'Description',
];
const redmine = (values: Partial<Record<(typeof REDMINE_HEADER)[number], string>>) =>
  mapCsvRow(
    'redmine',
    csvColumns(REDMINE_HEADER),
    REDMINE_HEADER.map((name) => values[name] ?? ''),
    utc,
  );

const JIRA_HEADER = [
  'Summary',
  'Issue key',
  'Issue id',
  'Issue Type',
  'Status',
  'Priority',
  'Assignee',
  'Reporter',
  'Created',
  'Updated',
  'Resolved',
  'Component/s',
  'Component/s',
  'Description',
  'Status Category',
  'Custom field (Severity)',
  'Reporter Email',
];
const jira = (values: Partial<Record<string, string>>, components: [string, string] = ['', '']) => {
  const row = JIRA_HEADER.map((name) => values[name] ?? '');
  row[11] = components[0];
  row[12] = components[1];
  return mapCsvRow('jira', csvColumns(JIRA_HEADER), row, utc);
};

const issueOf = (mapped: MappedRow): ImportedIssue => {
  if ('error' in mapped) throw new Error(mapped.error);
  return mapped.issue;
};

describe('a Redmine row', () => {
  it('becomes a bug with its id, times, people and mapped words', () => {
    const issue = issueOf(
      redmine({
        '#': '4711',
        Status: 'Resolved',
        Priority: 'Urgent',
        Subject: '  Export   drops the last row ',
        Author: 'Rita Reporter',
        Assignee: 'Dan Dev <dan@example.com>',
        Updated: '2021-02-04 09:00',
        Category: 'Reports',
        'Due date': '2021-03-01',
        Created: '2021-02-03 10:00',
        Closed: '2021-02-05 08:30',
        Description: 'Line one\nLine two',
      }),
    );
    expect(issue).toEqual({
      sourceId: '4711',
      order: '4711',
      title: 'Export drops the last row',
      description: 'Line one\nLine two',
      status: 'Closed',
      priority: 'High',
      severity: 'Minor',
      module: 'Reports',
      dueDate: '2021-03-01T00:00:00.000Z',
      reporter: { name: 'Rita Reporter' },
      assignees: [{ name: 'Dan Dev', email: 'dan@example.com' }],
      createdAt: '2021-02-03T10:00:00.000Z',
      statusChangedAt: '2021-02-05T08:30:00.000Z',
    });
  });

  it('takes the defaults for what is missing, and says where the description went', () => {
    const issue = issueOf(redmine({ '#': '7', Subject: 'Crash' }));
    expect(issue).toMatchObject({
      status: 'Open',
      priority: 'Medium',
      severity: 'Minor',
      module: null,
      dueDate: null,
      reporter: null,
      assignees: [],
      createdAt: null,
      statusChangedAt: null,
      description: 'Imported from Redmine #7, which had no description.',
    });
  });

  it('reads a status it does not know by its words or its closing time', () => {
    expect(issueOf(redmine({ '#': '1', Subject: 'x', Status: 'Waiting for QA' })).status).toBe('In Progress');
    expect(issueOf(redmine({ '#': '1', Subject: 'x', Status: 'Duplicate' })).status).toBe('Closed');
    expect(issueOf(redmine({ '#': '1', Subject: 'x', Status: 'Parked', Closed: '2021-01-01' })).status).toBe('Closed');
    expect(issueOf(redmine({ '#': '1', Subject: 'x', Status: 'Parked' })).status).toBe('Open');
  });

  it('dates an in-progress bug’s status at its last update, and never before its report', () => {
    const issue = issueOf(
      redmine({ '#': '1', Subject: 'x', Status: 'In Progress', Created: '2021-02-03 10:00', Updated: '2021-02-01' }),
    );
    expect(issue.statusChangedAt).toBe('2021-02-03T10:00:00.000Z');
  });

  it('refuses a row without a title, without an id, with a time that is none, or with the wrong field count', () => {
    expect(redmine({ '#': '1', Subject: '  ' })).toEqual({ error: 'Title is required' });
    expect(redmine({ Subject: 'x' })).toEqual({ error: 'The issue has no id' });
    expect(redmine({ '#': '1', Subject: 'x', Created: 'last Tuesday' })).toEqual({
      error: 'Created: "last Tuesday" is not a date',
    });
    expect(mapCsvRow('redmine', csvColumns(REDMINE_HEADER), ['1', 'x'], utc)).toEqual({
      error: `The row has 2 fields; the header has ${REDMINE_HEADER.length}`,
    });
  });

  it('cuts what is too long for a bug', () => {
    const issue = issueOf(redmine({ '#': '1', Subject: 'T'.repeat(150), Description: 'D'.repeat(25_000) }));
    expect(issue.title).toHaveLength(100);
    expect(issue.title.endsWith('…')).toBe(true);
    expect(issue.description).toHaveLength(20_000);
  });
});

describe('a Jira row', () => {
  it('keeps the issue key, orders by the numeric id, and reads the email column', () => {
    const issue = issueOf(
      jira(
        {
          Summary: 'Login fails',
          'Issue key': 'WEB-12',
          'Issue id': '10042',
          Status: 'In Review',
          Priority: 'Highest',
          Reporter: 'Rita Reporter',
          'Reporter Email': 'Rita@Example.com',
          Assignee: 'Dan Dev',
          Created: '05/Mar/24 2:22 PM',
          Updated: '06/Mar/24 9:00 AM',
          'Custom field (Severity)': 'Blocker',
        },
        ['', 'Auth'],
      ),
    );
    expect(issue).toMatchObject({
      sourceId: 'WEB-12',
      order: '10042',
      status: 'In Progress',
      priority: 'High',
      severity: 'Critical',
      module: 'Auth',
      reporter: { name: 'Rita Reporter', email: 'rita@example.com' },
      assignees: [{ name: 'Dan Dev' }],
      createdAt: '2024-03-05T14:22:00.000Z',
      statusChangedAt: '2024-03-06T09:00:00.000Z',
    });
  });

  it('falls back on the status category for a workflow’s own status names', () => {
    const row = { Summary: 'x', 'Issue key': 'A-1', Status: 'Ready for Ship', 'Status Category': 'Done' };
    expect(issueOf(jira(row)).status).toBe('Closed');
    expect(issueOf(jira({ ...row, Resolved: '05/Mar/24 2:22 PM' })).statusChangedAt).toBe('2024-03-05T14:22:00.000Z');
  });

  it('says which column a file lacks to be an export of the system', () => {
    expect(checkCsvHeader('jira', csvColumns(JIRA_HEADER))).toBeNull();
    expect(checkCsvHeader('jira', csvColumns(['Title', 'Body']))).toBe(
      'This is not a Jira CSV export: it has no "Summary" column and no "Issue key" or "Issue id" column',
    );
    expect(checkCsvHeader('redmine', csvColumns(JIRA_HEADER))).toBe(
      'This is not a Redmine CSV export: it has no "Subject" column and no "#" column',
    );
  });
});

describe('a GitHub issue', () => {
  const issue = {
    number: 42,
    title: 'Crash on save',
    body: 'Steps:\n1. Save',
    state: 'CLOSED',
    labels: [{ name: 'bug' }, { name: 'priority: high' }, { name: 'severity/major' }, { name: 'area: Editor' }],
    createdAt: '2023-05-01T08:00:00Z',
    closedAt: '2023-05-03T17:45:00Z',
    author: { login: 'octocat', name: 'The Octocat', is_bot: false },
    assignees: [{ login: 'hubot', name: '' }],
  };

  it('maps its state, labels, people and times', () => {
    expect(issueOf(mapGithubIssue(issue, utc))).toEqual({
      sourceId: '42',
      order: '42',
      title: 'Crash on save',
      description: 'Steps:\n1. Save',
      status: 'Closed',
      priority: 'High',
      severity: 'Major',
      module: 'Editor',
      dueDate: null,
      reporter: { name: 'The Octocat', aliases: ['octocat'] },
      assignees: [{ name: 'hubot' }],
      createdAt: '2023-05-01T08:00:00.000Z',
      statusChangedAt: '2023-05-03T17:45:00.000Z',
    });
  });

  it('is Open (or In Progress by its label) while open, and refuses what is not an issue', () => {
    expect(issueOf(mapGithubIssue({ ...issue, state: 'OPEN', closedAt: null, labels: [] }, utc)).status).toBe('Open');
    expect(
      issueOf(mapGithubIssue({ ...issue, state: 'OPEN', closedAt: null, labels: [{ name: 'in progress' }] }, utc)),
    ).toMatchObject({ status: 'In Progress', statusChangedAt: '2023-05-01T08:00:00.000Z' });
    expect(mapGithubIssue('nope', utc)).toEqual({ error: 'Not an issue: each element must be an object' });
    expect(mapGithubIssue({ ...issue, number: undefined }, utc)).toEqual({ error: 'The issue has no id' });
    expect(mapGithubIssue({ ...issue, title: '' }, utc)).toEqual({ error: 'Title is required' });
    expect(mapGithubIssue({ ...issue, createdAt: 'soon' }, utc)).toEqual({
      error: 'CreatedAt: "soon" is not a date',
    });
  });

  it('strips what a bug cannot hold (NUL, a lone surrogate)', () => {
    const mapped = issueOf(mapGithubIssue({ ...issue, title: 'A\u0000B', body: 'x\uD800y' }, utc));
    expect(mapped.title).toBe('AB');
    expect(mapped.description).toBe('x\uFFFDy');
  });
});

describe('labels', () => {
  it('read priority, severity, module and progress in the usual spellings', () => {
    expect(labelHints(['P1'])).toEqual({ priority: 'High' });
    expect(labelHints(['low priority', 'S3'])).toEqual({ priority: 'Low', severity: 'Minor' });
    expect(labelHints(['critical', 'wip', 'component/Billing'])).toEqual({
      severity: 'Critical',
      inProgress: true,
      module: 'Billing',
    });
    expect(labelHints(['bug', 'good first issue'])).toEqual({});
  });
});

describe('the source’s id order', () => {
  it('is natural: numbers as numbers', () => {
    const ids = ['WEB-10', 'WEB-9', '100', '20', 'API-2', '3'];
    expect([...ids].sort(compareImportOrder)).toEqual(['3', '20', '100', 'API-2', 'WEB-9', 'WEB-10']);
    expect(compareImportOrder('007', '7')).not.toBe(0);
  });
});

describe('docs/import.md', () => {
  const docs = readFileSync(
    path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../docs/import.md'),
    'utf8',
  ).toLowerCase();

  it('shows every status, priority and severity word this module maps', () => {
    const words = [
      ...Object.values(importStatusMaps).flatMap((map) => Object.keys(map)),
      ...Object.values(importPriorityMaps).flatMap((map) => Object.keys(map)),
      ...Object.keys(severityWords),
    ];
    expect(words.filter((word) => !docs.includes(word))).toEqual([]);
  });
});
