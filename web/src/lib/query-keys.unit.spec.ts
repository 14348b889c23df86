import { partialMatchKey } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { queryKeysForTopic } from '../live/topic-keys';
import { queryKeys } from './query-keys';

/** Whether some live topic's keys refresh `key` (TanStack matches a key by prefix). */
const refreshedLive = (key: readonly unknown[], topics: string[]) =>
  topics.some((topic) => queryKeysForTopic(topic).some((prefix) => partialMatchKey(key, prefix)));

describe('query keys (ADR 004)', () => {
  const topics = ['bug:b1', 'bugs', 'user:u1', 'chat:c1', 'notifications:u1', 'project:p1', 'label:l1'];

  it('puts every read of a live read model under a prefix its topic refreshes', () => {
    const live = [
      queryKeys.bug.detail('b1'),
      queryKeys.bug.history('b1'),
      queryKeys.bug.historyAt('b1', '2026-01-01T00:00:00.000Z'),
      queryKeys.bug.comparison('b1', 'a', 'b'),
      queryKeys.bug.comments('b1'),
      queryKeys.bugs.list('/api/bugs', { status: 'Open' }),
      queryKeys.bugs.search('crash'),
      queryKeys.bugs.allViewable,
      queryKeys.bugs.board('WEB', { priority: 'High' }),
      queryKeys.bugs.milestones('WEB'),
      queryKeys.bugs.milestone('m1'),
      queryKeys.bugs.burnup('m1', ''),
      queryKeys.labels.all,
      queryKeys.dashboard.role('admin'),
      queryKeys.dashboard.flow('metrics', { from: 'x' }),
      queryKeys.dashboard.auditActivity,
      queryKeys.users.developers,
      queryKeys.users.inviteCodes,
      queryKeys.users.chatDirectory,
      queryKeys.profile.self,
      queryKeys.chats.list,
      queryKeys.chats.detail('c1'),
      queryKeys.chats.messages('c1'),
      queryKeys.chats.aiModels,
      queryKeys.notifications.all,
      queryKeys.projects.all,
      queryKeys.projects.detail('WEB'),
    ];
    expect(live.filter((key) => !refreshedLive(key, topics))).toEqual([]);
  });

  it('refreshes every board on any bug change, and bug chips on a label change', () => {
    expect(refreshedLive(queryKeys.bugs.board('WEB', {}), ['bug:b1'])).toBe(true);
    expect(refreshedLive(queryKeys.bugs.list('/api/bugs', {}), ['label:l1'])).toBe(true);
  });

  it("leaves another bug's and another chat's reads alone", () => {
    expect(refreshedLive(queryKeys.bug.detail('b2'), ['bug:b1'])).toBe(false);
    expect(refreshedLive(queryKeys.chats.messages('c2'), ['chat:c1'])).toBe(false);
  });

  it('keeps what no topic announces out of the live prefixes', () => {
    const quiet = [
      queryKeys.site.sso,
      queryKeys.site.signupPolicy,
      queryKeys.site.mailConfigured,
      queryKeys.profile.apiTokens,
      queryKeys.webhooks.all,
      queryKeys.audit.verify,
      queryKeys.triage.suggestions('t', 'd'),
    ];
    expect(quiet.filter((key) => refreshedLive(key, topics))).toEqual([]);
  });
});
