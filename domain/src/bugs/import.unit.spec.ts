import { deciderSpec } from '@bugtrail/testing';
import { describe, expect, it } from 'vitest';
import type { Actor } from '../core/event.js';
import { admin, BUG, developer, general, NOW, reported, tester } from './decide.fixture.js';
import { type ImportBug, importBugDecider, importedEventMetadata } from './import.js';
import { importMessages } from './import-vocabulary.js';

const { given } = deciderSpec(importBugDecider);
const auditor: Actor = { id: 'auditor-1', role: 'auditor' };

const importBug = (data: Partial<ImportBug['data']> = {}, actor: Actor | null = admin): ImportBug => ({
  type: 'ImportBug',
  data: {
    bugId: BUG,
    number: 12,
    projectId: general.id,
    projectNumber: 4,
    importedFrom: { system: 'redmine', id: '4711' },
    title: 'Export drops the last row',
    description: 'Seen on every export.',
    status: 'Open',
    priority: 'High',
    severity: 'Major',
    module: 'Reports',
    dueDate: null,
    reporterId: 'imported:Rita Reporter',
    assigneeIds: [],
    createdAt: '2021-02-03T10:00:00.000Z',
    statusChangedAt: null,
    ...data,
  },
  metadata: { actor, now: NOW },
});

const reportedAsImported = {
  type: 'BugReported',
  data: {
    bugId: BUG,
    title: 'Export drops the last row',
    description: 'Seen on every export.',
    priority: 'High',
    severity: 'Major',
    status: 'Open',
    module: 'Reports',
    dueDate: null,
    reporterId: 'imported:Rita Reporter',
    number: 12,
    projectId: general.id,
    projectNumber: 4,
  },
} as const;

describe('importing a bug', () => {
  describe('when the stream is new', () => {
    it('reports it Open with its number and reporter, without the rules for new bugs', () => {
      given().when(importBug()).then([reportedAsImported]);
    });

    it('assigns whoever the source named and moves it to its status after', () => {
      given()
        .when(importBug({ assigneeIds: [developer.id, 'imported:Sam', developer.id], status: 'Closed' }))
        .then([
          reportedAsImported,
          { type: 'DevelopersAssigned', data: { bugId: BUG, developerIds: [developer.id, 'imported:Sam'] } },
          { type: 'BugStatusChanged', data: { bugId: BUG, from: 'Open', to: 'Closed' } },
        ]);
    });

    it('notices a due date already past for an open bug now, so the clock does not remind everyone of it', () => {
      const events = given()
        .when(importBug({ dueDate: '2021-03-01T00:00:00.000Z', status: 'In Progress' }))
        .thenEvents();
      expect(events.map((e) => e.type)).toEqual(['BugReported', 'BugStatusChanged', 'BugOverdue']);
      // A closed bug is reminded of nothing; a future date is left to the clock.
      expect(
        given()
          .when(importBug({ dueDate: '2021-03-01T00:00:00.000Z', status: 'Closed' }))
          .thenEvents()
          .map((e) => e.type),
      ).toEqual(['BugReported', 'BugStatusChanged']);
      expect(
        given()
          .when(importBug({ dueDate: '2031-03-01T00:00:00.000Z' }))
          .thenEvents()
          .map((e) => e.type),
      ).toEqual(['BugReported']);
    });

    it('refuses everyone but an admin', () => {
      for (const actor of [tester, developer, auditor]) {
        given().when(importBug({}, actor)).thenThrows('forbidden', importMessages.adminsOnly);
      }
      given().when(importBug({}, null)).thenThrows('unauthorized', 'Not authorized, no token');
    });

    it('needs a title', () => {
      given()
        .when(importBug({ title: '  ' }))
        .thenThrows('validation', importMessages.titleRequired);
    });
  });

  describe('when the bug is there already', () => {
    it('refuses (the import counts it as skipped)', () => {
      given(reported()).when(importBug()).thenThrows('conflict', 'Bug already exists');
    });
  });
});

describe('an imported event’s metadata', () => {
  const times = (command: ImportBug) => {
    const events = importBugDecider.decide(command, importBugDecider.initialState());
    const meta = importedEventMetadata(command);
    return events.map((e) => [e.type, meta(e).occurredAt, meta(e).importedFrom]);
  };

  it('carries the source’s times and ids', () => {
    expect(
      times(importBug({ assigneeIds: [developer.id], status: 'Closed', statusChangedAt: '2021-02-05T09:30:00.000Z' })),
    ).toEqual([
      ['BugReported', '2021-02-03T10:00:00.000Z', { system: 'redmine', id: '4711' }],
      ['DevelopersAssigned', '2021-02-03T10:00:00.000Z', { system: 'redmine', id: '4711' }],
      ['BugStatusChanged', '2021-02-05T09:30:00.000Z', { system: 'redmine', id: '4711' }],
    ]);
  });

  it('never goes back in time, and a due notice is of the import’s moment', () => {
    expect(
      times(
        importBug({
          status: 'In Progress',
          statusChangedAt: '2020-01-01T00:00:00.000Z',
          dueDate: '2021-03-01T00:00:00.000Z',
        }),
      ).map(([type, at]) => [type, at]),
    ).toEqual([
      ['BugReported', '2021-02-03T10:00:00.000Z'],
      ['BugStatusChanged', '2021-02-03T10:00:00.000Z'],
      ['BugOverdue', NOW],
    ]);
  });
});
