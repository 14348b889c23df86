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

/** Rows a PageDown or PageUp moves the active bug by. */
const PAGE_ROWS = 10;

/**
 * Focuses a bug's row once it is in the DOM. A windowed list renders it after `reveal`
 * scrolls there, and rows measured on the way move it: reveal again each frame until it is in.
 */
export function focusBugRow(id: string, reveal?: () => void, tries = 120) {
  const el = document.querySelector<HTMLElement>(`[data-bug-row="${CSS.escape(id)}"]`);
  if (el) {
    el.focus({ preventScroll: true });
    el.scrollIntoView({ block: 'nearest' });
    return;
  }
  if (tries <= 0) return;
  reveal?.();
  requestAnimationFrame(() => focusBugRow(id, reveal, tries - 1));
}

/**
 * j/k (and the arrows on a row) move the active bug, PageDown/PageUp by ten, Home and End
 * to the first and the last (End first loads every page); the bug is focused and scrolled
 * into view, Enter opens it, x selects it. The active bug is the row or card the keyboard
 * is on; a click or Tab there makes it active too. `scrollTo` brings a bug not rendered (a
 * windowed list) into the window before it is focused.
 */
export function useListKeys({
  bugs,
  activeId,
  setActiveId,
  onOpen,
  onToggle,
  scrollTo,
  onEnd,
}: {
  bugs: Bug[];
  activeId: string | null;
  setActiveId: (id: string) => void;
  onOpen: (bug: Bug) => void;
  onToggle?: ((id: string) => void) | undefined;
  scrollTo?: ((index: number) => void) | undefined;
  /** End: load the rest of the list, then activate its last bug. */
  onEnd?: (() => void) | undefined;
}) {
  const state = useRef({ bugs, activeId, setActiveId, onOpen, onToggle, scrollTo, onEnd });
  state.current = { bugs, activeId, setActiveId, onOpen, onToggle, scrollTo, onEnd };

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.metaKey || event.ctrlKey || event.altKey) return;
      if (isTypingTarget(event.target) || dialogOpen()) return;
      const { bugs, activeId, setActiveId, onOpen, onToggle, scrollTo, onEnd } = state.current;
      if (bugs.length === 0) return;
      const index = bugs.findIndex((b) => b._id === activeId);
      const onRow = (event.target as HTMLElement | null)?.hasAttribute?.('data-bug-row') ?? false;
      const moveTo = (next: number) => {
        event.preventDefault();
        const bug = bugs[Math.max(0, Math.min(next, bugs.length - 1))]!;
        setActiveId(bug._id);
        const at = bugs.indexOf(bug);
        focusBugRow(bug._id, scrollTo ? () => scrollTo(at) : undefined);
      };
      const last = bugs.length - 1;
      switch (event.key) {
        case 'j':
          return moveTo(index < 0 ? 0 : index + 1);
        case 'k':
          return moveTo(index < 0 ? 0 : index - 1);
        case 'ArrowDown':
          if (onRow) moveTo(index + 1);
          return;
        case 'ArrowUp':
          if (onRow) moveTo(index - 1);
          return;
        case 'PageDown':
          if (onRow) moveTo(index + PAGE_ROWS);
          return;
        case 'PageUp':
          if (onRow) moveTo(index - PAGE_ROWS);
          return;
        case 'Home':
          if (onRow) moveTo(0);
          return;
        case 'End':
          if (!onRow) return;
          if (onEnd) {
            event.preventDefault();
            onEnd();
          } else moveTo(last);
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
