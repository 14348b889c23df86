import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api';
import { notify } from '../../lib/notify';
import { queryKeys } from '../../lib/query-keys';
import { markRead, type NotificationList, type ReadSelection } from './notification-model';

export const notificationTexts = {
  title: 'Notifications',
  markAll: 'Mark all as read',
  empty: "You're all caught up",
  emptyHint: 'Assignments, mentions and changes to your bugs show up here.',
  loadFailed: 'Notifications could not be loaded.',
  retry: 'Try again',
  markFailed: 'Could not mark notifications as read. Please try again.',
  unread: 'Unread',
} as const;

/** The live topic `notifications:{userId}` names this key (live/topic-keys.ts). */

/**
 * The caller's notifications. Nothing polls: the live stream invalidates the key when
 * they change, and a return to the tab refetches (a stream that was down missed nothing then).
 */
export const notificationsQuery = () =>
  queryOptions({
    queryKey: queryKeys.notifications.all,
    queryFn: ({ signal }) => api<NotificationList>('/api/notifications', { signal }),
    refetchOnWindowFocus: 'always',
  });

/**
 * Marks notifications read: at once in the cache (the badge drops as the reader clicks),
 * then the server's count; on a failure the list is put back. Offline it fails rather than
 * waiting in the offline queue: a read mark is not worth a "saved offline" toast.
 */
export function useMarkNotificationsRead() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (selection: ReadSelection) =>
      api<{ unread: number }>('/api/notifications/read', { method: 'POST', body: selection, offline: 'fail' }),
    onMutate: async (selection) => {
      await client.cancelQueries({ queryKey: queryKeys.notifications.all });
      const previous = client.getQueryData<NotificationList>(queryKeys.notifications.all);
      if (previous)
        client.setQueryData(queryKeys.notifications.all, markRead(previous, selection, new Date().toISOString()));
      return { previous };
    },
    onError: (_error, _selection, context) => {
      if (context?.previous) client.setQueryData(queryKeys.notifications.all, context.previous);
      notify.error(notificationTexts.markFailed);
    },
    onSuccess: (answer) => {
      if (typeof answer?.unread !== 'number') return;
      client.setQueryData<NotificationList>(queryKeys.notifications.all, (list) =>
        list ? { ...list, unread: answer.unread } : list,
      );
    },
    onSettled: () => client.invalidateQueries({ queryKey: queryKeys.notifications.all }),
  });
}
