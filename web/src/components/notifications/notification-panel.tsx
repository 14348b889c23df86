import { useQuery } from '@tanstack/react-query';
import { AlarmClock, BellOff, CheckCheck } from 'lucide-react';
import { type MouseEvent, useEffect, useRef } from 'react';
import type { Role } from '../../lib/types';
import { formatExact, formatRelative, useNow } from '../bug-activity/moment';
import { Avatar } from '../ui/avatar';
import { buttonClass } from '../ui/button';
import { cx } from '../ui/cx';
import { Spinner } from '../ui/spinner';
import { type AppNotification, notificationHref } from './notification-model';
import { notificationsQuery, notificationTexts, useMarkNotificationsRead } from './notifications-api';

type PanelProps = {
  id: string;
  role: Role;
  /** Opens a notification's page (an href inside the app); the bell closes the panel. */
  onNavigate: (href: string) => void;
};

/**
 * The bell's panel, a sheet hanging from the header's right end (the sticky header is its
 * containing block): the header's whole width on phones, 28rem from there up. Only
 * utilities the app already uses: the one stylesheet is the landing page's too.
 * Newest first; unread ones in bold with a dot.
 */
export function NotificationPanel({ id, role, onNavigate }: PanelProps) {
  const { data, isPending, isError, refetch } = useQuery(notificationsQuery());
  const mark = useMarkNotificationsRead();
  const panel = useRef<HTMLDivElement>(null);
  const now = useNow();
  const unread = data?.unread ?? 0;

  // Focus goes into the panel: its first notification once listed, else the panel itself.
  useEffect(() => {
    const node = panel.current;
    (node?.querySelector<HTMLElement>('[data-autofocus]') ?? node)?.focus();
  }, []);

  const open = (notification: AppNotification, href: string | null, event: MouseEvent) => {
    if (!notification.readAt) mark.mutate({ ids: [notification._id] });
    if (!href) return;
    // A new tab or window (modifier keys, middle click) is the browser's own business.
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    onNavigate(href);
  };

  return (
    <div
      ref={panel}
      id={id}
      role="dialog"
      aria-label={notificationTexts.title}
      tabIndex={-1}
      className="absolute top-full right-0 z-10 flex max-h-[65vh] w-full max-w-md flex-col overflow-hidden border border-slate-200 bg-white shadow-2xl focus:outline-none"
    >
      <div className="flex items-center justify-between gap-3 border-b border-slate-100 px-4 py-3">
        <h2 className="text-sm font-semibold text-slate-900">
          {notificationTexts.title}
          {unread > 0 ? <span className="ml-2 text-xs font-medium text-slate-500">{unread} unread</span> : null}
        </h2>
        <button
          type="button"
          className={buttonClass('ghost', 'sm', '-mr-2 text-brand-700')}
          disabled={unread === 0}
          onClick={() => {
            // The button goes disabled: keep focus in the panel rather than losing it to the page.
            panel.current?.focus();
            mark.mutate({ all: true });
          }}
        >
          <CheckCheck className="size-4" aria-hidden="true" />
          {notificationTexts.markAll}
        </button>
      </div>
      <div className="min-h-0 flex-1 overflow-y-auto overscroll-contain">
        {data ? (
          data.notifications.length === 0 ? (
            <div className="flex flex-col items-center justify-center gap-3 px-6 py-10 text-center">
              <span className="rounded-full bg-brand-50 p-3 text-brand-600">
                <BellOff className="size-6" aria-hidden="true" />
              </span>
              <p className="text-sm font-medium text-slate-900">{notificationTexts.empty}</p>
              <p className="max-w-xs text-xs text-slate-500">{notificationTexts.emptyHint}</p>
            </div>
          ) : (
            <ul className="divide-y divide-slate-100">
              {data.notifications.map((notification, index) => (
                <li key={notification._id}>
                  <NotificationRow
                    notification={notification}
                    href={notificationHref(notification, role)}
                    now={now}
                    isFirst={index === 0}
                    onOpen={open}
                  />
                </li>
              ))}
            </ul>
          )
        ) : isPending ? (
          <div className="flex justify-center py-10 text-brand-600">
            <Spinner className="size-6" label="Loading notifications" />
          </div>
        ) : isError ? (
          <div className="flex flex-col items-center gap-3 px-6 py-10 text-center">
            <p className="text-sm text-slate-600">{notificationTexts.loadFailed}</p>
            <button type="button" className={buttonClass('secondary', 'sm')} onClick={() => void refetch()}>
              {notificationTexts.retry}
            </button>
          </div>
        ) : null}
      </div>
    </div>
  );
}

type RowProps = {
  notification: AppNotification;
  href: string | null;
  now: number;
  isFirst: boolean;
  onOpen: (notification: AppNotification, href: string | null, event: MouseEvent) => void;
};

function NotificationRow({ notification, href, now, isFirst, onOpen }: RowProps) {
  const isUnread = !notification.readAt;
  const className =
    'flex w-full items-start gap-3 px-4 py-3 text-left hover:bg-slate-50 focus-visible:-outline-offset-2';
  const body = (
    <>
      {/* The text names the actor already: the face is decoration here. */}
      <span aria-hidden="true" className="shrink-0">
        {notification.actor ? (
          <Avatar user={notification.actor} size="sm" />
        ) : (
          <span className="inline-flex size-8 items-center justify-center rounded-full bg-amber-100 text-amber-800">
            <AlarmClock className="size-4" />
          </span>
        )}
      </span>
      <span className="min-w-0 flex-1">
        <span
          className={cx(
            'block text-sm break-words',
            isUnread ? 'font-semibold text-slate-900' : 'font-normal text-slate-600',
          )}
        >
          {isUnread ? <span className="sr-only">{notificationTexts.unread}: </span> : null}
          {notification.text}
        </span>
        <time
          dateTime={notification.createdAt}
          title={formatExact(notification.createdAt)}
          className="mt-0.5 block text-xs text-slate-500"
        >
          {formatRelative(notification.createdAt, now)}
        </time>
      </span>
      <span
        aria-hidden="true"
        data-unread={isUnread || undefined}
        className={cx('mt-1.5 size-2 shrink-0 rounded-full', isUnread ? 'bg-brand-600' : 'bg-transparent')}
      />
    </>
  );
  const focusMark = isFirst ? { 'data-autofocus': true } : {};
  if (href)
    return (
      <a
        href={href}
        className={className}
        onClick={(event) => onOpen(notification, href, event)}
        onAuxClick={(event) => onOpen(notification, href, event)}
        {...focusMark}
      >
        {body}
      </a>
    );
  return (
    <button type="button" className={className} onClick={(event) => onOpen(notification, null, event)} {...focusMark}>
      {body}
    </button>
  );
}
