import { deciderSpec } from '@bugtrail/testing';
import { describe, expect, it } from 'vitest';
import type { Decider } from '../core/event.js';
import type { BugEvent } from './bug-events.js';
import type { CommentEvent } from './comments.js';
import { aReportedBug, assigned, BUG, developer, NOW, reported } from './decide.fixture.js';
import { type DueEvent, type DueState, dueDecider, dueReminderWindowMs, type NoticeDue } from './due.js';

// The decider folds the whole bug stream: the bug's own events say whether and when it is due.
const dueOverTheStream = dueDecider as Decider<DueState, NoticeDue, DueEvent | BugEvent | CommentEvent>;
const { given } = deciderSpec(dueOverTheStream);

const hour = 60 * 60 * 1000;
/** The due date `ms` after NOW (before it when negative), as the bug stores it. */
const dueIn = (ms: number) => new Date(Date.parse(NOW) + ms).toISOString();
const notice = (now = NOW): NoticeDue => ({ type: 'NoticeDue', data: { bugId: BUG }, metadata: { actor: null, now } });
const dueOn = (dueDate: string) => [reported({ dueDate }), assigned(developer.id)];
const dueSoon = (dueDate: string): DueEvent => ({ type: 'BugDueSoon', data: { bugId: BUG, dueDate } });
const overdue = (dueDate: string): DueEvent => ({ type: 'BugOverdue', data: { bugId: BUG, dueDate } });
const moved = (dueDate: string | null): BugEvent => ({
  type: 'BugDetailsEdited',
  data: { bugId: BUG, changes: { dueDate } },
});
const statusChanged = (from: 'Open' | 'Closed', to: 'Open' | 'Closed'): BugEvent => ({
  type: 'BugStatusChanged',
  data: { bugId: BUG, from, to },
});

describe('NoticeDue', () => {
  describe('when the bug does not exist', () => {
    it('notices nothing (the clock asks about bugs, it does not make them)', () => {
      given().when(notice()).thenNothing();
    });
  });

  describe('when the bug has no due date', () => {
    it('notices nothing', () => {
      given(...aReportedBug())
        .when(notice())
        .thenNothing();
    });

    it('notices nothing once its due date is cleared', () => {
      given(...dueOn(dueIn(hour)), moved(null))
        .when(notice())
        .thenNothing();
    });

    it('notices nothing for a due date the clock cannot read', () => {
      given(...dueOn('not a date'))
        .when(notice())
        .thenNothing();
    });
  });

  describe('when the bug is open and due later', () => {
    it('notices nothing while the due date is more than a day off', () => {
      given(...dueOn(dueIn(dueReminderWindowMs + 1)))
        .when(notice())
        .thenNothing();
    });

    it('says it is due soon from a day before its due date, the day included', () => {
      given(...dueOn(dueIn(dueReminderWindowMs)))
        .when(notice())
        .then([{ type: 'BugDueSoon', data: { bugId: BUG, dueDate: dueIn(dueReminderWindowMs) } }]);
      given(...dueOn(dueIn(1)))
        .when(notice())
        .then([{ type: 'BugDueSoon', data: { bugId: BUG, dueDate: dueIn(1) } }]);
    });

    it('says it once per due date', () => {
      given(...dueOn(dueIn(hour)), dueSoon(dueIn(hour)))
        .when(notice())
        .thenNothing();
    });

    it('says it again when the due date moves, but not for a date it already said', () => {
      given(...dueOn(dueIn(hour)), dueSoon(dueIn(hour)), moved(dueIn(2 * hour)))
        .when(notice())
        .then([dueSoon(dueIn(2 * hour))]);
      given(...dueOn(dueIn(hour)), dueSoon(dueIn(hour)), moved(dueIn(2 * hour)), moved(dueIn(hour)))
        .when(notice())
        .thenNothing();
    });
  });

  describe('when the bug is open and past due', () => {
    it('says it is overdue from the moment it is due', () => {
      given(...dueOn(NOW))
        .when(notice())
        .then([{ type: 'BugOverdue', data: { bugId: BUG, dueDate: NOW } }]);
      given(...dueOn(dueIn(-3 * 24 * hour)))
        .when(notice())
        .then([overdue(dueIn(-3 * 24 * hour))]);
    });

    it('says overdue after due soon (the two are told apart)', () => {
      given(...dueOn(dueIn(hour)), dueSoon(dueIn(hour)))
        .when(notice(dueIn(hour)))
        .then([overdue(dueIn(hour))]);
    });

    it('says only overdue when the clock never saw it due soon', () => {
      given(...dueOn(dueIn(-hour)))
        .when(notice())
        .then([overdue(dueIn(-hour))]);
    });

    it('says it once per due date', () => {
      given(...dueOn(dueIn(-hour)), overdue(dueIn(-hour)))
        .when(notice())
        .thenNothing();
    });

    it('says it again for a new due date that has passed too', () => {
      given(...dueOn(dueIn(-2 * hour)), overdue(dueIn(-2 * hour)), moved(dueIn(-hour)))
        .when(notice())
        .then([overdue(dueIn(-hour))]);
    });
  });

  describe('when the bug is closed or deleted', () => {
    it('notices nothing for a closed bug, however late', () => {
      given(...dueOn(dueIn(-hour)), statusChanged('Open', 'Closed'))
        .when(notice())
        .thenNothing();
    });

    it('notices again once the bug is reopened', () => {
      given(...dueOn(dueIn(-hour)), statusChanged('Open', 'Closed'), statusChanged('Closed', 'Open'))
        .when(notice())
        .then([overdue(dueIn(-hour))]);
    });

    it('notices nothing for a deleted bug', () => {
      given(...dueOn(dueIn(hour)), { type: 'BugDeleted', data: { bugId: BUG } })
        .when(notice())
        .thenNothing();
    });
  });
});

describe('the folded state', () => {
  it("keeps the bug as the bug's own events make it, comments aside", () => {
    const { state } = given(
      ...dueOn(dueIn(hour)),
      { type: 'CommentAdded', data: { bugId: BUG, commentId: 'c1', body: 'Soon?', mentions: [] } },
      moved(dueIn(2 * hour)),
    );
    expect(state.bug).toMatchObject({ kind: 'reported', id: BUG, status: 'Open', dueDate: dueIn(2 * hour) });
  });

  it('remembers each notice by its kind and due date, and a comment leaves the state as it was', () => {
    const { state } = given(...dueOn(dueIn(-hour)), dueSoon(dueIn(-2 * hour)), overdue(dueIn(-hour)));
    expect([...state.noticed].sort()).toEqual([`BugDueSoon:${dueIn(-2 * hour)}`, `BugOverdue:${dueIn(-hour)}`]);
    const after = dueOverTheStream.evolve(state, {
      type: 'CommentAdded',
      data: { bugId: BUG, commentId: 'c1', body: 'Late.', mentions: [] },
    });
    expect(after).toBe(state);
  });
});
