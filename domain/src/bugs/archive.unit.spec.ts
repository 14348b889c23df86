import { deciderSpec } from '@bugtrail/testing';
import { describe, expect, it } from 'vitest';
import type { Actor } from '../core/event.js';
import { type ArchiveBug, bugArchiveMessages, decideArchive } from './archive.js';
import { evolveBug, initialBugState, type ReportedBug } from './bug.js';
import type { BugEvent } from './bug-events.js';
import { admin, aReportedBug, BUG, developer, NOW, otherTester, tester } from './decide.fixture.js';
import { bugStreamDecider } from './decide.js';

const { given } = deciderSpec(bugStreamDecider(decideArchive));

const archive = (archived = true, actor: Actor | null = admin): ArchiveBug => ({
  type: 'ArchiveBug',
  data: { bugId: BUG, archived },
  metadata: { actor, now: NOW },
});
const moved = (from: 'Open' | 'In Progress' | 'Closed', to: 'Open' | 'In Progress' | 'Closed'): BugEvent => ({
  type: 'BugStatusChanged',
  data: { bugId: BUG, from, to },
});
const archivedEvent: BugEvent = { type: 'BugArchived', data: { bugId: BUG } };
const restoredEvent: BugEvent = { type: 'BugRestored', data: { bugId: BUG } };
const aClosedBug = () => [...aReportedBug(), moved('Open', 'Closed')];

const fold = (events: BugEvent[]) => events.reduce(evolveBug, initialBugState()) as ReportedBug;

describe('ArchiveBug', () => {
  it('archives a closed bug and restores an archived one; the same value again is no change', () => {
    given(...aClosedBug())
      .when(archive())
      .then([archivedEvent]);
    given(...aClosedBug(), archivedEvent)
      .when(archive(false))
      .then([restoredEvent]);
    given(...aClosedBug(), archivedEvent)
      .when(archive())
      .then([]);
    given(...aClosedBug())
      .when(archive(false))
      .then([]);
  });

  it('archives only closed bugs (409)', () => {
    given(...aReportedBug())
      .when(archive())
      .thenThrows('conflict', bugArchiveMessages.notClosed);
    given(...aReportedBug(), moved('Open', 'In Progress'))
      .when(archive())
      .thenThrows('conflict', bugArchiveMessages.notClosed);
  });

  it('is for admins: others get 403, with the view message for a bug they may not see', () => {
    given(...aClosedBug())
      .when(archive(true, tester))
      .thenThrows('forbidden', bugArchiveMessages.cannotArchive);
    given(...aClosedBug())
      .when(archive(true, developer))
      .thenThrows('forbidden', bugArchiveMessages.cannotArchive);
    given(...aClosedBug())
      .when(archive(true, otherTester))
      .thenThrows('forbidden', "You don't have permission to view this bug");
  });

  it('answers 404 for a missing or deleted bug, before who asks', () => {
    given().when(archive(true, tester)).thenThrows('not_found', 'Bug not found');
    given(...aClosedBug(), { type: 'BugDeleted', data: { bugId: BUG } })
      .when(archive())
      .thenThrows('not_found', 'Bug not found');
  });

  it('folds: archived until restored, or until the bug leaves Closed', () => {
    expect(fold(aClosedBug()).archived).toBe(false);
    expect(fold([...aClosedBug(), archivedEvent]).archived).toBe(true);
    expect(fold([...aClosedBug(), archivedEvent, restoredEvent]).archived).toBe(false);
    expect(fold([...aClosedBug(), archivedEvent, moved('Closed', 'Open')]).archived).toBe(false);
    expect(fold([...aClosedBug(), archivedEvent, moved('Closed', 'Closed')]).archived).toBe(true);
  });
});
