import { deciderSpec } from '@bugtrail/testing';
import { describe, expect, it } from 'vitest';
import type { Actor } from '../core/event.js';
import { defaultStates, stateMessages, stateOf, type WorkflowState } from '../projects/state-values.js';
import { decideStates, type SetProjectStates } from '../projects/states.js';
import type { BugEvent } from './bug-events.js';
import { decideBugState, type SetBugState } from './bug-state.js';
import { admin, aReportedBug, BUG, developer, NOW, otherDeveloper, tester } from './decide.fixture.js';
import { bugStreamDecider } from './decide.js';
import { bugMessages } from './permissions.js';

const states: WorkflowState[] = [
  { id: 'open', name: 'Backlog', category: 'Open', color: '#64748b' },
  { id: 'ready', name: 'Ready', category: 'Open', color: '#2563eb' },
  { id: 'in_progress', name: 'In Progress', category: 'In Progress', color: '#0891b2' },
  { id: 'qa', name: 'Needs QA', category: 'In Progress', color: '#d97706' },
  { id: 'closed', name: 'Done', category: 'Closed', color: '#65a30d' },
];

describe('SetBugState', () => {
  const { given } = deciderSpec(bugStreamDecider(decideBugState));
  const put = (stateId: string, actor: Actor = developer, extra: Partial<SetBugState['data']> = {}): SetBugState => ({
    type: 'SetBugState',
    data: { bugId: BUG, stateId, states, ...extra },
    metadata: { actor, now: NOW },
  });
  const moved = (stateId: string, from: string): BugEvent => ({
    type: 'BugStateChanged',
    data: { bugId: BUG, stateId, from },
  });
  const status = (from: string, to: string) =>
    ({ type: 'BugStatusChanged', data: { bugId: BUG, from, to } }) as BugEvent;

  it('moves within a category by the state alone, to another with the status first', () => {
    given(...aReportedBug())
      .when(put('ready'))
      .then([moved('ready', 'open')]);
    given(...aReportedBug())
      .when(put('qa'))
      .then([status('Open', 'In Progress'), moved('qa', 'open')]);
    given(...aReportedBug(), moved('ready', 'open'))
      .when(put('ready'))
      .thenNothing();
    // Its category's first state is where it is without a choice.
    given(...aReportedBug())
      .when(put('open'))
      .thenNothing();
  });

  it('puts a bug back in its category’s first state after a status change', () => {
    const { state } = given(...aReportedBug(), moved('ready', 'open'), status('Open', 'In Progress'));
    expect(state.kind === 'reported' && stateOf(states, state.status, state.stateId).id).toBe('in_progress');
  });

  it('refuses an unknown state, and those who may not change the status', () => {
    given(...aReportedBug())
      .when(put('nope'))
      .thenThrows('validation', stateMessages.unknown('nope'));
    given(...aReportedBug())
      .when(put('ready', otherDeveloper))
      .thenThrows('forbidden', bugMessages.noPermissionToView);
    // Outside a team project the reporter changes no status, by state or otherwise.
    for (const stateId of ['closed', 'qa']) {
      given(...aReportedBug())
        .when(put(stateId, tester))
        .thenThrows('forbidden', stateMessages.cannotChange);
    }
  });

  it('waits for open blockers before a Closed state, as the status route does; admins may go past them', () => {
    const blockers = { openBlockers: [{ id: 'b-2', key: 'WEB-2' }] };
    given(...aReportedBug())
      .when(put('closed', developer, blockers))
      .thenThrows('conflict', 'Blocked by WEB-2: close it first');
    const events = given(...aReportedBug())
      .when(put('closed', admin, { ...blockers, override: true }))
      .thenEvents();
    expect(events[0]?.data).toMatchObject({ to: 'Closed', overriddenBlockers: ['b-2'] });
  });
});

describe('decideStates', () => {
  const set = (sent: SetProjectStates['data']['states'], holders: Record<string, number> = {}): SetProjectStates => ({
    type: 'SetProjectStates',
    data: { states: sent, newIds: sent.map((_, i) => `new-${i}`), holders },
    metadata: { actor: admin, now: NOW },
  });
  const keep = defaultStates.map((s) => ({ id: s.id, name: s.name, category: s.category }));

  it('keeps ids, makes new ones, fills a colour, and decides nothing for the same list', () => {
    const [event] = decideStates('p', [], set([...keep, { name: 'Needs QA', category: 'In Progress' }]));
    expect(event?.data.states.at(-1)).toEqual({
      id: 'new-3',
      name: 'Needs QA',
      category: 'In Progress',
      color: '#0891b2',
    });
    expect(decideStates('p', [], set(keep))).toEqual([]);
  });

  it('refuses an empty category, a name twice, an unknown id, a state removed while it holds bugs', () => {
    const refusal = (fn: () => unknown) => {
      try {
        fn();
      } catch (error) {
        return (error as Error).message;
      }
      return null;
    };
    expect(refusal(() => decideStates('p', [], set(keep.slice(0, 2))))).toBe(stateMessages.categoryEmpty('Closed'));
    expect(refusal(() => decideStates('p', [], set([...keep, { name: 'open', category: 'Open' }])))).toBe(
      stateMessages.nameTaken('open'),
    );
    expect(refusal(() => decideStates('p', [], set([...keep, { id: 'x', name: 'X', category: 'Open' }])))).toBe(
      stateMessages.unknown('x'),
    );
    const withQa = [
      ...defaultStates,
      { id: 'qa', name: 'Needs QA', category: 'In Progress' as const, color: '#d97706' },
    ];
    expect(refusal(() => decideStates('p', withQa, set(keep, { qa: 2 })))).toBe(stateMessages.inUse('Needs QA', 2));
    expect(decideStates('p', withQa, set(keep, {}))).toHaveLength(1);
  });
});
