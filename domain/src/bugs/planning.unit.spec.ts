import { deciderSpec } from '@bugtrail/testing';
import { generateKeyBetween } from 'fractional-indexing';
import { describe, expect, it } from 'vitest';
import type { Actor } from '../core/event.js';
import { labelMessages } from '../labels/label.schemas.js';
import { evolveBug, initialBugState, type ReportedBug } from './bug.js';
import type { BugEvent } from './bug-events.js';
import { admin, aReportedBug, BUG, developer, NOW, otherDeveloper, otherTester, tester } from './decide.fixture.js';
import { bugStreamDecider } from './decide.js';
import { decideBugLabels, decideDropDeletedLabel, type SetBugLabels } from './labels.js';
import { bugMessages } from './permissions.js';
import {
  decideRank,
  defaultRank,
  defaultRankNumberBound,
  type RankBug,
  rankBetween,
  rankMessages,
  rankOf,
} from './rank.js';

const fold = (events: BugEvent[]) => events.reduce(evolveBug, initialBugState()) as ReportedBug;

describe('SetBugLabels', () => {
  const { given } = deciderSpec(bugStreamDecider(decideBugLabels));
  const set = (labelIds: string[], actor: Actor = tester, known = ['ui', 'api', 'perf']): SetBugLabels => ({
    type: 'SetBugLabels',
    data: { bugId: BUG, labelIds, knownLabelIds: known.filter((id) => labelIds.includes(id)) },
    metadata: { actor, now: NOW },
  });
  const added = (...labelIds: string[]): BugEvent => ({ type: 'BugLabelsAdded', data: { bugId: BUG, labelIds } });
  const removed = (...labelIds: string[]): BugEvent => ({ type: 'BugLabelsRemoved', data: { bugId: BUG, labelIds } });

  it('decides the labels as a diff: who joins, who leaves; the same list is no change', () => {
    given(...aReportedBug())
      .when(set(['ui', 'api']))
      .then([added('ui', 'api')]);
    given(...aReportedBug(), added('ui', 'api'))
      .when(set(['api', 'perf']))
      .then([added('perf'), removed('ui')]);
    given(...aReportedBug(), added('ui'))
      .when(set(['ui', 'ui']))
      .then([]);
    expect(fold([...aReportedBug(), added('ui', 'api'), removed('ui'), added('perf')]).labelIds).toEqual([
      'api',
      'perf',
    ]);
  });

  it('is for those who may edit the bug and its assigned developers', () => {
    for (const actor of [admin, tester, developer]) {
      given(...aReportedBug())
        .when(set(['ui'], actor))
        .then([added('ui')]);
    }
    given(...aReportedBug())
      .when(set(['ui'], otherDeveloper))
      .thenThrows('forbidden', bugMessages.noPermissionToView);
    given(...aReportedBug())
      .when(set(['ui'], otherTester))
      .thenThrows('forbidden', bugMessages.noPermissionToView);
  });

  it('refuses a label that does not exist (400), but keeps one deleted since on the bug', () => {
    given(...aReportedBug())
      .when(set(['gone']))
      .thenThrows('validation', labelMessages.unknown);
    given(...aReportedBug(), added('gone'))
      .when(set(['gone', 'ui']))
      .then([added('ui')]);
  });

  it('takes a deleted label off a bug once (the cleanup)', () => {
    const drop = {
      type: 'DropDeletedLabel' as const,
      data: { bugId: BUG, labelId: 'ui' },
      metadata: { actor: null, now: NOW },
    };
    const state = fold([...aReportedBug(), added('ui', 'api')]);
    expect(decideDropDeletedLabel(drop, state)).toEqual([
      { type: 'BugLabelsRemoved', data: { bugId: BUG, labelIds: ['ui'], labelDeleted: true } },
    ]);
    expect(decideDropDeletedLabel(drop, fold([...aReportedBug(), added('api')]))).toEqual([]);
  });
});

describe('RankBug', () => {
  const { given } = deciderSpec(bugStreamDecider(decideRank));
  const rank = (lo: string | null, hi: string | null, actor: Actor = admin): RankBug => ({
    type: 'RankBug',
    data: { bugId: BUG, lo, hi },
    metadata: { actor, now: NOW },
  });
  const ranked = (r: string): BugEvent => ({ type: 'BugRanked', data: { bugId: BUG, rank: r } });

  it('places the bug between the two ranks, and records nothing when it is there already', () => {
    given(...aReportedBug())
      .when(rank('a0', 'a1'))
      .then([ranked('a0V')]);
    // Its default rank (number 1 in its project) lies between these already.
    const here = rankOf(fold(aReportedBug()));
    given(...aReportedBug())
      .when(rank(null, generateKeyBetween(here, null)))
      .then([]);
    given(...aReportedBug())
      .when(rank('a0', 'a0'))
      .thenThrows('conflict', rankMessages.boardChanged);
  });

  it('is for those who may edit or work on the bug', () => {
    given(...aReportedBug())
      .when(rank('a0', 'a1', developer))
      .then([ranked('a0V')]);
    given(...aReportedBug())
      .when(rank('a0', 'a1', otherDeveloper))
      .thenThrows('forbidden', bugMessages.noPermissionToView);
    given(...aReportedBug())
      .when(rank('a0', 'a1', otherTester))
      .thenThrows('forbidden', bugMessages.noPermissionToView);
  });

  it('keeps a given rank until the bug moves to another project, which gives it the default there', () => {
    const bug = fold([...aReportedBug(), ranked('a0V')]);
    expect(rankOf(bug)).toBe('a0V');
    const moved = fold([
      ...aReportedBug(),
      ranked('a0V'),
      {
        type: 'BugMovedToProject',
        data: { bugId: BUG, fromProjectId: bug.projectId, projectId: 'p2', projectNumber: 9 },
      },
    ]);
    expect(moved.rank).toBeNull();
    expect(rankOf(moved)).toBe(defaultRank(9));
    // A rank is not an edit: the bug's updatedAt stays.
    expect(bug.updatedAt).toBe(fold(aReportedBug()).updatedAt);
  });
});

describe('default ranks', () => {
  it('put the newest on top, as keys fractional indexing goes between', () => {
    const ranks = [1, 2, 3, 61, 62, 63, 3843, 3844, 1_000_000].map(defaultRank);
    for (let i = 1; i < ranks.length; i++) expect(ranks[i]! < ranks[i - 1]!).toBe(true);
    for (let i = 1; i < ranks.length; i++) {
      const between = rankBetween(ranks[i]!, ranks[i - 1]!);
      expect(between > ranks[i]! && between < ranks[i - 1]!).toBe(true);
    }
    expect(rankBetween(null, defaultRank(5)) < defaultRank(5)).toBe(true);
  });

  it('answer which project numbers lie below or above any rank, as a brute force over the numbers says', () => {
    const numbers = Array.from({ length: 300 }, (_, i) => i + 1);
    const probes = [
      ...numbers.map(defaultRank),
      ...numbers.slice(0, 50).map((n) => rankBetween(defaultRank(n + 1), defaultRank(n))),
      rankBetween(null, defaultRank(300)),
      rankBetween(defaultRank(1), null),
      'a0',
      'Zz',
      'zz',
    ];
    for (const probe of probes) {
      const below = defaultRankNumberBound(probe, 'below');
      const above = defaultRankNumberBound(probe, 'above');
      for (const n of numbers) {
        const r = defaultRank(n);
        expect(r < probe, `${n} below ${probe}`).toBe(n >= below);
        expect(r > probe, `${n} above ${probe}`).toBe(n <= above);
      }
    }
  });
});
