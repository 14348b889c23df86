import { useQuery } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { Bell } from 'lucide-react';
import { useEffect, useId, useRef, useState } from 'react';
import type { Role } from '../../lib/types';
import { cx } from '../ui/cx';
import { badgeText, bellLabel } from './notification-model';
import { NotificationPanel } from './notification-panel';
import { notificationsQuery } from './notifications-api';

/**
 * The header's bell: the unread count as a badge (and in its name), and a panel listing
 * the notifications. The panel is a non-modal dialog: it closes on Escape, on a click or
 * a Tab outside, and on opening a notification; focus goes into it and back to the bell.
 */
export function NotificationBell({ role }: { role: Role }) {
  const { data } = useQuery(notificationsQuery());
  const [isOpen, setOpen] = useState(false);
  const bell = useRef<HTMLButtonElement>(null);
  const wrapper = useRef<HTMLDivElement>(null);
  const panelId = useId();
  const navigate = useNavigate();
  const unread = data?.unread ?? 0;
  const badge = badgeText(unread);

  useEffect(() => {
    if (!isOpen) return;
    const onPointerDown = (event: PointerEvent) => {
      if (!wrapper.current?.contains(event.target as Node)) setOpen(false);
    };
    // Tabbing out of the bell and its panel closes it, as a click outside does.
    const onFocusIn = (event: FocusEvent) => {
      if (!wrapper.current?.contains(event.target as Node)) setOpen(false);
    };
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      event.stopPropagation();
      setOpen(false);
      bell.current?.focus();
    };
    document.addEventListener('pointerdown', onPointerDown);
    document.addEventListener('focusin', onFocusIn);
    document.addEventListener('keydown', onKeyDown);
    return () => {
      document.removeEventListener('focusin', onFocusIn);
      document.removeEventListener('pointerdown', onPointerDown);
      document.removeEventListener('keydown', onKeyDown);
      // Focus that went with the panel (a notification opened, an outside click on
      // nothing focusable) comes back to the bell; focus taken by something else stays there.
      requestAnimationFrame(() => {
        const active = document.activeElement;
        if (!active || active === document.body) bell.current?.focus();
      });
    };
  }, [isOpen]);

  return (
    <div ref={wrapper} className="shrink-0">
      <button
        ref={bell}
        type="button"
        aria-label={bellLabel(unread)}
        aria-haspopup="dialog"
        aria-expanded={isOpen}
        aria-controls={isOpen ? panelId : undefined}
        title="Notifications"
        onClick={() => setOpen((open) => !open)}
        className={cx(
          'relative inline-flex size-9 items-center justify-center rounded-lg text-slate-600 hover:bg-slate-100 hover:text-slate-900',
          isOpen && 'bg-slate-100 text-slate-900',
        )}
      >
        <Bell className="size-5" aria-hidden="true" />
        {badge ? (
          <span
            aria-hidden="true"
            data-testid="notification-badge"
            className="absolute -top-1.5 -right-1.5 inline-flex h-5 min-w-5 items-center justify-center rounded-full bg-rose-600 px-1 text-[10px] font-semibold text-white"
          >
            {badge}
          </span>
        ) : null}
      </button>
      {isOpen ? (
        <NotificationPanel
          id={panelId}
          role={role}
          onNavigate={(href) => {
            setOpen(false);
            void navigate({ href });
          }}
        />
      ) : null}
    </div>
  );
}
