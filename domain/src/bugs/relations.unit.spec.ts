import { deciderSpec } from '@bugtrail/testing';
import { describe, expect, it } from 'vitest';
import type { Actor } from '../core/event.js';
import type { BugEvent } from './bug-events.js';
import { admin, aReportedBug, BUG, developer, NOW, otherDeveloper, otherTester, tester } from './decide.fixture.js';
import { bugStreamDecider, decideBug } from './decide.js';
import { bugMessages } from './permissions.js';
import {
  type AddRelation,
  blockedMessage,
  decideAddRelation,
  decideRemoveRelation,
  decideSetParent,
  type RelationType,
  relationEdge,
  relationMessages,
  relationSeenFrom,
  type SetParent,
} from './relations.js';

const OTHER = 'bug-2';
const add = (
  type: RelationType,
  facts: Partial<Pick<AddRelation['data'], 'other' | 'exists' | 'wouldCycle' | 'otherBugId'>> = {},
  actor: Actor = admin,
): AddRelation => ({
  type: 'AddRelation',
  data: { bugId: BUG, otherBugId: OTHER, type, other: { id: OTHER }, exists: false, wouldCycle: false, ...facts },
  metadata: { actor, now: NOW },
});
const added = (type: RelationType): BugEvent => ({
  type: 'BugRelationAdded',
  data: { bugId: BUG, otherBugId: OTHER, type },
});

describe('AddRelation', () => {
  const { given } = deciderSpec(bugStreamDecider(decideAddRelation));

  it('records the relation as said, and closes a duplicate that is open', () => {
    given(...aReportedBug())
      .when(add('blocks'))
      .then([added('blocks')]);
    given(...aReportedBug())
      .when(add('duplicate_of', {}, tester))
      .then([added('duplicate_of'), { type: 'BugStatusChanged', data: { bugId: BUG, from: 'Open', to: 'Closed' } }]);
    given(...aReportedBug())
      .when(add('relates_to', { exists: true }))
      .then([]);
  });

  it('refuses itself and a loop (400), an unseen bug (404) and a stranger (403)', () => {
    given(...aReportedBug())
      .when(add('blocks', { otherBugId: BUG }))
      .thenThrows('validation', relationMessages.cycle);
    given(...aReportedBug())
      .when(add('blocked_by', { wouldCycle: true }))
      .thenThrows('validation', relationMessages.cycle);
    given(...aReportedBug())
      .when(add('blocks', { other: null }))
      .thenThrows('not_found', bugMessages.notFound);
    given(...aReportedBug())
      .when(add('blocks', {}, otherDeveloper))
      .thenThrows('forbidden', bugMessages.noPermissionToView);
    given(...aReportedBug())
      .when(add('blocks', {}, otherTester))
      .thenThrows('forbidden', bugMessages.noPermissionToView);
    given(...aReportedBug())
      .when(add('blocks', {}, developer))
      .then([added('blocks')]);
  });

  it('removes only a relation there is (404 otherwise)', () => {
    const { given: givenRemove } = deciderSpec(bugStreamDecider(decideRemoveRelation));
    const remove = (exists: boolean) => ({
      type: 'RemoveRelation' as const,
      data: { bugId: BUG, otherBugId: OTHER, type: 'blocked_by' as const, exists },
      metadata: { actor: admin, now: NOW },
    });
    givenRemove(...aReportedBug())
      .when(remove(true))
      .then([{ type: 'BugRelationRemoved', data: { bugId: BUG, otherBugId: OTHER, type: 'blocked_by' } }]);
    givenRemove(...aReportedBug())
      .when(remove(false))
      .thenThrows('not_found', relationMessages.relationNotFound);
  });
});

describe('SetParent', () => {
  const { given } = deciderSpec(bugStreamDecider(decideSetParent));
  const set = (
    parentId: string | null,
    facts: Partial<Pick<SetParent['data'], 'parent' | 'wouldCycle'>> = {},
  ): SetParent => ({
    type: 'SetParent',
    data: { bugId: BUG, parentId, parent: parentId ? { id: parentId } : null, wouldCycle: false, ...facts },
    metadata: { actor: admin, now: NOW },
  });
  const parentSet = (parentId: string | null): BugEvent => ({ type: 'BugParentSet', data: { bugId: BUG, parentId } });

  it('sets, changes and clears the parent; the same again is no change', () => {
    given(...aReportedBug())
      .when(set(OTHER))
      .then([parentSet(OTHER)]);
    given(...aReportedBug(), parentSet(OTHER))
      .when(set(OTHER))
      .then([]);
    given(...aReportedBug(), parentSet(OTHER))
      .when(set(null))
      .then([parentSet(null)]);
  });

  it('refuses itself and its own sub-bugs (400) and an unseen parent (404)', () => {
    given(...aReportedBug())
      .when(set(BUG))
      .thenThrows('validation', relationMessages.cycle);
    given(...aReportedBug())
      .when(set(OTHER, { wouldCycle: true }))
      .thenThrows('validation', relationMessages.cycle);
    given(...aReportedBug())
      .when(set(OTHER, { parent: null }))
      .thenThrows('not_found', bugMessages.notFound);
  });
});

describe('closing a blocked bug', () => {
  const close = (actor: Actor, override = false, blockers = [{ id: 'b3', key: 'WEB-3' }]) => ({
    type: 'ChangeBugStatus' as const,
    data: { bugId: BUG, status: 'Closed' as const, openBlockers: blockers, ...(override ? { override } : {}) },
    metadata: { actor, now: NOW },
  });
  const state = () =>
    aReportedBug().reduce(
      (s, e) => bugStreamDecider(decideBug).evolve(s, e),
      bugStreamDecider(decideBug).initialState(),
    );

  it('is refused (409) naming every open blocker, for the assigned developer and an admin alike', () => {
    expect(() => decideBug(close(developer), state())).toThrow('Blocked by WEB-3: close it first');
    expect(() =>
      decideBug(
        close(admin, false, [
          { id: 'b3', key: 'WEB-3' },
          { id: 'b5', key: 'WEB-5' },
        ]),
        state(),
      ),
    ).toThrow('Blocked by WEB-3 and WEB-5: close them first');
    expect(blockedMessage(['A-1', 'A-2', 'A-3'])).toBe('Blocked by A-1, A-2 and A-3: close them first');
  });

  it('goes past them for an admin who says so, and the event names them; a developer cannot', () => {
    expect(decideBug(close(admin, true), state())).toEqual([
      { type: 'BugStatusChanged', data: { bugId: BUG, from: 'Open', to: 'Closed', overriddenBlockers: ['b3'] } },
    ]);
    expect(() => decideBug(close(developer, true), state())).toThrow('Blocked by WEB-3: close it first');
    expect(decideBug(close(developer, false, []), state())).toHaveLength(1);
  });
});

describe('relation edges', () => {
  it('keep one edge per pair, each bug naming it its way', () => {
    for (const type of ['blocks', 'blocked_by', 'duplicate_of', 'relates_to'] as const) {
      const edge = relationEdge('a', type, 'b');
      expect(relationSeenFrom(edge, 'a')).toBe(type);
      expect(relationEdge('b', relationSeenFrom(edge, 'b'), 'a')).toEqual(edge);
    }
  });
});
