import type { QueryKey } from '@tanstack/react-query';

/**
 * The TanStack Query keys a live topic names (ADR 004). Keys are prefixes: `['bugs']`
 * also refreshes `['bugs', 'list', filters]`, `['dashboard']` every role's dashboard.
 */
export function queryKeysForTopic(topic: string): QueryKey[] {
  const colon = topic.indexOf(':');
  const kind = colon < 0 ? topic : topic.slice(0, colon);
  const id = colon < 0 ? null : topic.slice(colon + 1);
  switch (kind) {
    // Bug changes also move the team's task counters (the admin's Team Members page).
    // ['bug', id] is a prefix: it covers the bug's history (['bug', id, 'history']) and its
    // comments (['bug', id, 'comments']), which the server announces on the same topic.
    case 'bug':
      return id ? [['bug', id], ['bugs'], ['dashboard'], ['users']] : [['bugs'], ['dashboard'], ['users']];
    case 'bugs':
      return [['bugs'], ['dashboard'], ['users']];
    case 'user':
    case 'users':
      return [['users'], ['profile']];
    case 'chat':
      return id ? [['chats'], ['chat', id], ['chat', id, 'messages']] : [['chats']];
    // `notifications:{userId}` reaches only that user, so their one list is the one to refresh.
    case 'notifications':
      return [['notifications']];
    default:
      return [];
  }
}
