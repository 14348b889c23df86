import type { QueryKey } from '@tanstack/react-query';
import { queryKeys } from '../lib/query-keys';

/**
 * The TanStack Query keys a live topic names (ADR 004), from lib/query-keys.ts. Keys are
 * prefixes: `bugs.all` also refreshes every list, `dashboard.all` every role's dashboard.
 */
export function queryKeysForTopic(topic: string): QueryKey[] {
  const colon = topic.indexOf(':');
  const kind = colon < 0 ? topic : topic.slice(0, colon);
  const id = colon < 0 ? null : topic.slice(colon + 1);
  switch (kind) {
    // Bug changes also move the team's task counters (the admin's Team Members page).
    // `bug.detail(id)` is a prefix: it covers the bug's history and its comments, which the
    // server announces on the same topic.
    case 'bug':
      return id
        ? [queryKeys.bug.detail(id), queryKeys.bugs.all, queryKeys.dashboard.all, queryKeys.users.all]
        : [queryKeys.bugs.all, queryKeys.dashboard.all, queryKeys.users.all];
    case 'bugs':
      return [queryKeys.bugs.all, queryKeys.dashboard.all, queryKeys.users.all];
    case 'user':
    case 'users':
      return [queryKeys.users.all, queryKeys.profile.self];
    case 'chat':
      return id
        ? [queryKeys.chats.list, queryKeys.chats.detail(id), queryKeys.chats.messages(id)]
        : [queryKeys.chats.list];
    // `notifications:{userId}` reaches only that user, so their one list is the one to refresh.
    case 'notifications':
      return [queryKeys.notifications.all];
    // `project:{id}` reaches only those who see the project; `projects` says the default one changed.
    case 'project':
    case 'projects':
      return [queryKeys.projects.all];
    // A label renamed, recoloured or deleted changes the chips every bug answer carries.
    case 'label':
    case 'labels':
      return [queryKeys.labels.all, queryKeys.bugs.all];
    // Rules and their runs changed (heard by those who read every rule).
    case 'automations':
      return [queryKeys.automations.all];
    // SLA policies changed: their list and figures, and the SLA every bug answer carries.
    case 'sla':
      return [queryKeys.sla.all, queryKeys.bugs.all];
    // `milestones|*|{projectId}`: a milestone of a project one sees was planned, changed, closed or deleted.
    case 'milestones':
      return [queryKeys.bugs.all];
    default:
      return [];
  }
}
