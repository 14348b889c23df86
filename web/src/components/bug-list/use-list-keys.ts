import { useEffect, useRef } from 'react';
import type { Bug } from '../../lib/types';

/** Keys typed into a field, or with a dialog open, are the field's or the dialog's. */
export function isTypingTarget(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null;
  if (!el?.tagName) return false;
  if (el.isContentEditable) return true;
  return ['INPUT', 'TEXTAREA', 'SELECT'].includes(el.tagName);
}

export const dialogOpen = () => document.querySelector('[role="dialog"], [role="alertdialog"]') !== null;

/**
 * j/k move the active bug (and focus it, scrolled into view), Enter opens it, x selects
 * it. The active bug is the row or card the keyboard is on; a click or Tab there makes it
 * active too.
 */
export function useListKeys({
  bugs,
  activeId,
  setActiveId,
  onOpen,
  onToggle,
}: {
  bugs: Bug[];
  activeId: string | null;
  setActiveId: (id: string) => void;
  onOpen: (bug: Bug) => void;
  onToggle?: ((id: string) => void) | undefined;
}) {
  const state = useRef({ bugs, activeId, setActiveId, onOpen, onToggle });
  state.current = { bugs, activeId, setActiveId, onOpen, onToggle };

  useEffect(() => {
    const focusBug = (id: string) => {
      const el = document.querySelector<HTMLElement>(`[data-bug-row="${CSS.escape(id)}"]`);
      el?.focus({ preventScroll: true });
      el?.scrollIntoView({ block: 'nearest' });
    };
    const onKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.metaKey || event.ctrlKey || event.altKey) return;
      if (isTypingTarget(event.target) || dialogOpen()) return;
      const { bugs, activeId, setActiveId, onOpen, onToggle } = state.current;
      if (bugs.length === 0) return;
      const index = bugs.findIndex((b) => b._id === activeId);
      if (event.key === 'j' || event.key === 'k') {
        event.preventDefault();
        const next = index < 0 ? 0 : event.key === 'j' ? Math.min(index + 1, bugs.length - 1) : Math.max(index - 1, 0);
        const bug = bugs[next]!;
        setActiveId(bug._id);
        focusBug(bug._id);
        return;
      }
      const active = index >= 0 ? bugs[index]! : null;
      if (!active) return;
      if (event.key === 'Enter') {
        // Enter on a link or button inside the list is that control's own.
        const el = event.target as HTMLElement | null;
        if (el && el !== document.body && !el.hasAttribute('data-bug-row')) return;
        event.preventDefault();
        onOpen(active);
      } else if (event.key === 'x' && onToggle) {
        event.preventDefault();
        onToggle(active._id);
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
}
