import type { NotificationDto, NotificationKind } from '@bugtrail/domain/vocabulary';
import type { Role } from '../../lib/types';
import { bugPath } from '../nav';

/**
 * The notifications as `GET /api/notifications` answers them (api.md "People"): newest
 * first, at most 50, with the caller's unread count over all of them.
 */
export type { NotificationKind };

/** `text` is a whole sentence, written by the server ("Ada Admin assigned you to #42 …"). */
export type AppNotification = NotificationDto;

export type NotificationList = { notifications: AppNotification[]; unread: number };

/** What `POST /api/notifications/read` takes: some ids, or everything. */
export type ReadSelection = { ids: string[] } | { all: true };

/** The badge: the count, "99+" past 99, nothing at 0. */
export function badgeText(unread: number): string | null {
  if (!Number.isFinite(unread) || unread <= 0) return null;
  return unread > 99 ? '99+' : String(Math.floor(unread));
}

/** The bell's accessible name: "Notifications", and the count when there is any. */
export function bellLabel(unread: number): string {
  const count = badgeText(unread);
  return count ? `Notifications, ${count} unread` : 'Notifications';
}

/**
 * Where a notification leads for the reader's role: its bug as the role opens bugs, else
 * its chat (selected through the chat page's `chat` search parameter), else nowhere.
 * Auditors have no chat page.
 */
export function notificationHref(notification: Pick<AppNotification, 'bugId' | 'chatId'>, role: Role): string | null {
  if (notification.bugId) return bugPath(role, encodeURIComponent(notification.bugId));
  if (notification.chatId && role !== 'auditor')
    return `/${role}/chats?${new URLSearchParams({ chat: notification.chatId })}`;
  return null;
}

/** The list as it reads once `selection` is marked read at `now` (the optimistic view). */
export function markRead(list: NotificationList, selection: ReadSelection, now: string): NotificationList {
  if ('all' in selection) {
    return {
      notifications: list.notifications.map((item) => (item.readAt ? item : { ...item, readAt: now })),
      unread: 0,
    };
  }
  const ids = new Set(selection.ids);
  let newlyRead = 0;
  const notifications = list.notifications.map((item) => {
    if (item.readAt || !ids.has(item._id)) return item;
    newlyRead += 1;
    return { ...item, readAt: now };
  });
  return { notifications, unread: Math.max(0, list.unread - newlyRead) };
}
