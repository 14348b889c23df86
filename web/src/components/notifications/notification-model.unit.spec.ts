import { describe, expect, it } from 'vitest';
import { type AppNotification, badgeText, bellLabel, markRead, notificationHref } from './notification-model';

const notification = (id: string, fields: Partial<AppNotification> = {}): AppNotification => ({
  _id: id,
  kind: 'assigned',
  text: `Ada Admin assigned you to #${id}`,
  bugId: null,
  chatId: null,
  actor: { _id: 'u-ada', name: 'Ada Admin' },
  createdAt: '2026-01-01T10:00:00.000Z',
  readAt: null,
  ...fields,
});

describe('the bell', () => {
  it('shows the count, 99+ past 99, and nothing at 0', () => {
    expect(badgeText(0)).toBeNull();
    expect(badgeText(-1)).toBeNull();
    expect(badgeText(1)).toBe('1');
    expect(badgeText(99)).toBe('99');
    expect(badgeText(100)).toBe('99+');
  });

  it('is named "Notifications", with the unread count when there is any', () => {
    expect(bellLabel(0)).toBe('Notifications');
    expect(bellLabel(3)).toBe('Notifications, 3 unread');
    expect(bellLabel(250)).toBe('Notifications, 99+ unread');
  });
});

describe('where a notification leads', () => {
  it('opens its bug where the reader opens bugs', () => {
    const about = { bugId: 'b1', chatId: null };
    expect(notificationHref(about, 'admin')).toBe('/admin/bugs/b1');
    expect(notificationHref(about, 'tester')).toBe('/tester/bug/b1');
    expect(notificationHref(about, 'developer')).toBe('/developer/assigned-bugs/b1');
    expect(notificationHref(about, 'auditor')).toBe('/auditor/bugs/b1');
  });

  it('opens its chat selected on the chat page; auditors have none, nor does a notification about nothing', () => {
    const about = { bugId: null, chatId: 'c 1' };
    expect(notificationHref(about, 'developer')).toBe('/developer/chats?chat=c+1');
    expect(notificationHref(about, 'auditor')).toBeNull();
    expect(notificationHref({ bugId: null, chatId: null }, 'admin')).toBeNull();
  });
});

describe('marking read (the optimistic view)', () => {
  const now = '2026-01-02T00:00:00.000Z';
  const list = {
    notifications: [notification('3'), notification('2', { readAt: '2026-01-01T11:00:00.000Z' }), notification('1')],
    unread: 2,
  };

  it('marks the given ids and counts only those that were unread', () => {
    const after = markRead(list, { ids: ['1', '2', 'unknown'] }, now);
    expect(after.unread).toBe(1);
    expect(after.notifications.map((item) => item.readAt)).toEqual([null, '2026-01-01T11:00:00.000Z', now]);
  });

  it('marks everything with all', () => {
    const after = markRead(list, { all: true }, now);
    expect(after.unread).toBe(0);
    expect(after.notifications.every((item) => item.readAt !== null)).toBe(true);
    expect(after.notifications[1]?.readAt).toBe('2026-01-01T11:00:00.000Z');
  });
});
