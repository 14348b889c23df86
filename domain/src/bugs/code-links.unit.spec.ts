import { deciderSpec } from '@bugtrail/testing';
import { describe, expect, it } from 'vitest';
import { evolveBug, initialBugState } from './bug.js';
import type { BugEvent } from './bug-events.js';
import { bugKeyReferences, bugReferences, type CommitLink, type PullRequestLink } from './code-links.js';
import { aReportedBug, BUG, command } from './decide.fixture.js';
import { bugDecider } from './decide.js';

const { given } = deciderSpec(bugDecider);

const commit: CommitLink = {
  sha: '6113728f27ae82c7b1a177c8d03f9e96e0adf246',
  message: 'Fixes #1',
  url: 'https://github.com/o/r/commit/6113728f',
  author: 'Codertocat',
  repository: 'o/r',
  at: '2030-06-01T10:00:00.000Z',
};
const request: PullRequestLink = {
  number: 2,
  title: 'Fix #1',
  url: 'https://github.com/o/r/pull/2',
  state: 'open',
  repository: 'o/r',
};
const link = (data: { commits?: CommitLink[]; pullRequests?: PullRequestLink[]; close?: boolean }) =>
  command(
    'LinkCode',
    { bugId: BUG, commits: data.commits ?? [], pullRequests: data.pullRequests ?? [], close: data.close ?? false },
    null,
  );
const commitLinked = (c: CommitLink = commit): BugEvent => ({ type: 'CommitLinked', data: { bugId: BUG, ...c } });
const requestLinked = (r: PullRequestLink = request): BugEvent => ({
  type: 'PullRequestLinked',
  data: { bugId: BUG, ...r },
});
const closed = (from: 'Open' | 'In Progress' = 'Open'): BugEvent => ({
  type: 'BugStatusChanged',
  data: { bugId: BUG, from, to: 'Closed' },
});

describe('bug references in commit messages and request titles', () => {
  it('finds every #number, and those a closing word names', () => {
    expect(bugReferences('Fixes #42, see #7 and #42')).toEqual({ mentioned: [42, 7], closed: [42] });
    for (const word of ['fix', 'fixes', 'fixed', 'close', 'closes', 'closed', 'resolve', 'resolves', 'resolved']) {
      expect(bugReferences(`${word} #9`).closed, word).toEqual([9]);
      expect(bugReferences(`${word.toUpperCase()}: #9`).closed, word).toEqual([9]);
    }
    expect(bugReferences('title #3', 'body: closes #4')).toEqual({ mentioned: [3, 4], closed: [4] });
  });

  it('does not read numbers inside words, URLs or entities, nor words that only contain a closing word', () => {
    expect(bugReferences('abc#12 https://x.test/page#34 &#56; ##7 prefix #0')).toEqual({ mentioned: [], closed: [] });
    expect(bugReferences('prefixes #8 unfixed #9')).toEqual({ mentioned: [8, 9], closed: [] });
    expect(bugReferences(null, undefined, '')).toEqual({ mentioned: [], closed: [] });
  });
});

describe('LinkCode', () => {
  it('links a commit once and closes only when asked and not closed already', () => {
    given(...aReportedBug())
      .when(link({ commits: [commit], close: true }))
      .then([commitLinked(), closed()]);
    given(...aReportedBug(), commitLinked())
      .when(link({ commits: [commit] }))
      .then([]);
    given(...aReportedBug(), commitLinked(), closed())
      .when(link({ commits: [commit], close: true }))
      .then([]);
    // Linked before without closing (a feature branch), now on the default branch.
    given(...aReportedBug(), commitLinked())
      .when(link({ commits: [commit], close: true }))
      .then([closed()]);
  });

  it('links a request and records each change of its state or title, nothing for the same again', () => {
    given(...aReportedBug())
      .when(link({ pullRequests: [request] }))
      .then([requestLinked()]);
    given(...aReportedBug(), requestLinked())
      .when(link({ pullRequests: [request] }))
      .then([]);
    const merged = { ...request, state: 'merged' as const };
    given(...aReportedBug(), requestLinked())
      .when(link({ pullRequests: [merged], close: true }))
      .then([requestLinked(merged), closed()]);
  });

  it('ignores a missing or deleted bug (404), and needs no actor', () => {
    given()
      .when(link({ commits: [commit] }))
      .thenThrows('not_found', 'Bug not found');
    given(...aReportedBug(), { type: 'BugDeleted', data: { bugId: BUG } })
      .when(link({ commits: [commit] }))
      .thenThrows('not_found', 'Bug not found');
  });

  it('folds links into the bug: commits in order, a request replaced by its newer state', () => {
    const events = [
      ...aReportedBug(),
      commitLinked(),
      commitLinked(),
      requestLinked(),
      requestLinked({ ...request, state: 'closed' }),
    ];
    const state = events.reduce(evolveBug, initialBugState());
    expect(state.kind === 'reported' && state.code).toEqual({
      commits: [commit],
      pullRequests: [{ ...request, state: 'closed' }],
    });
  });
});

describe('bugKeyReferences (issue 35: bugs named by key)', () => {
  it('finds keys as written, and those a closing word comes before', () => {
    expect(bugKeyReferences('Fixes WEB-7, see API-3 and WEB-7')).toEqual({
      mentioned: ['WEB-7', 'API-3'],
      closed: ['WEB-7'],
    });
    expect(bugKeyReferences('title SEC-12', 'body: resolves SEC-12')).toEqual({
      mentioned: ['SEC-12'],
      closed: ['SEC-12'],
    });
  });
  it('takes no lower-case word, no key inside a longer token, and no number 0', () => {
    expect(bugKeyReferences('web-7 X-WEB-7 WEB-7-2 WEB-0 fixes web-9')).toEqual({ mentioned: [], closed: [] });
    expect(bugKeyReferences(null, undefined, '')).toEqual({ mentioned: [], closed: [] });
  });
});
