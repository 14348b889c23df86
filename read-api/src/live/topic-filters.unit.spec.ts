import type { Actor } from '@bugtrail/domain';
import { describe, expect, it } from 'vitest';
import { registerDefaultTopicFilters, TopicFilterRegistry } from './topic-filters.js';
import { parseTopic } from './topics.js';

const admin: Actor = { id: 'a1', role: 'admin' };
const reporter: Actor = { id: 't1', role: 'tester' };
const otherTester: Actor = { id: 't2', role: 'tester' };
const assignee: Actor = { id: 'd1', role: 'developer' };
const otherDeveloper: Actor = { id: 'd2', role: 'developer' };
const auditor: Actor = { id: 'au1', role: 'auditor' };

describe('parseTopic', () => {
  it('splits kind, id and audience, and names the topic without its audience', () => {
    expect(parseTopic('bug:b1|t1,d1')).toEqual({
      kind: 'bug',
      id: 'b1',
      audience: ['t1', 'd1'],
      projects: null,
      isPublic: false,
      name: 'bug:b1',
    });
    expect(parseTopic('bug:b1|t1|p1,p2')).toMatchObject({ audience: ['t1'], projects: ['p1', 'p2'], name: 'bug:b1' });
    expect(parseTopic('bugs|*|p1')).toMatchObject({ kind: 'bugs', projects: ['p1'], name: 'bugs' });
    expect(parseTopic('chat:c1|*')).toMatchObject({ kind: 'chat', id: 'c1', isPublic: true, name: 'chat:c1' });
    expect(parseTopic('bugs')).toEqual({
      kind: 'bugs',
      id: null,
      audience: null,
      projects: null,
      isPublic: false,
      name: 'bugs',
    });
    expect(parseTopic('bug:b1|')).toMatchObject({ audience: [], name: 'bug:b1' });
  });
});

describe('the default topic filters (api.md "who sees what")', () => {
  const registry = new TopicFilterRegistry();
  registerDefaultTopicFilters(registry);
  const sees = (actor: Actor, topic: string) => registry.canSee(actor, parseTopic(topic));

  it('bug:{id}: admins always, others only when in the audience (before or after the change)', () => {
    const topic = 'bug:b1|t1,d1';
    expect([admin, reporter, otherTester, assignee, otherDeveloper].map((a) => sees(a, topic))).toEqual([
      true,
      true,
      false,
      true,
      false,
    ]);
    expect(sees(admin, 'bug:b2|')).toBe(true);
    expect(sees(assignee, 'bug:b2|')).toBe(false);
    expect(sees(assignee, 'bug:b2')).toBe(false);
  });

  it('bugs: admins and testers, never developers', () => {
    expect([admin, reporter, assignee].map((a) => sees(a, 'bugs'))).toEqual([true, true, false]);
  });

  it('a private project’s bug topics reach nobody it is hidden from, in its audience or not (issue 35)', () => {
    const outsider = (actor: Actor): Actor => ({ ...actor, hiddenProjects: ['sec'] });
    expect(sees(outsider(reporter), 'bug:b1|t1,d1|sec')).toBe(false);
    expect(sees(outsider(assignee), 'bug:b1|t1,d1|sec')).toBe(false);
    expect(sees(outsider(reporter), 'bugs|*|sec')).toBe(false);
    // A bug moved between a hidden project and a seen one is heard (it arrives, or leaves).
    expect(sees(outsider(reporter), 'bug:b1|t1|sec,web')).toBe(true);
    expect(sees(outsider(reporter), 'bugs|*|sec,web')).toBe(true);
    // Members, and those who see every project (no hidden ones), hear it as before.
    expect(sees(reporter, 'bug:b1|t1,d1|sec')).toBe(true);
    expect(sees(admin, 'bug:b1||sec')).toBe(true);
    expect(sees(auditor, 'bugs|*|sec')).toBe(true);
  });

  it('a team project’s bug topics reach its members, in the audience or not (access "team")', () => {
    const member = (actor: Actor): Actor => ({ ...actor, teamProjects: ['web'] });
    expect(sees(member(otherDeveloper), 'bug:b1|t1,d1|web')).toBe(true);
    expect(sees(member(otherTester), 'bug:b1|t1,d1|web')).toBe(true);
    expect(sees(member(otherDeveloper), 'bugs|*|web')).toBe(true);
    // Elsewhere the roles' rules hold.
    expect(sees(member(otherDeveloper), 'bug:b1|t1,d1|api')).toBe(false);
    expect(sees(member(otherDeveloper), 'bugs|*|api')).toBe(false);
    expect(sees(otherDeveloper, 'bug:b1|t1,d1|web')).toBe(false);
  });

  it('auditors hear every bug topic an admin hears', () => {
    for (const topic of ['bug:b1|t1,d1', 'bug:b2|', 'bug:b3', 'bugs', 'users', 'user:t1']) {
      expect(sees(auditor, topic), topic).toBe(sees(admin, topic));
    }
  });

  it('user and users: everyone', () => {
    for (const actor of [admin, reporter, assignee]) {
      expect(sees(actor, 'users')).toBe(true);
      expect(sees(actor, 'user:x')).toBe(true);
    }
  });

  it('chat: the audience or everybody, admins get no exception', () => {
    expect(sees(admin, 'chat:c1|t1,d1')).toBe(false);
    expect(sees(assignee, 'chat:c1|t1,d1')).toBe(true);
    expect(sees(otherDeveloper, 'chat:c1|*')).toBe(true);
  });

  it('a kind nobody registered reaches nobody, until a feature registers it', () => {
    expect(sees(admin, 'dashboard')).toBe(false);
    registry.register('dashboard', () => true);
    expect(sees(assignee, 'dashboard')).toBe(true);
  });
});
