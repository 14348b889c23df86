import { useCallback, useEffect, useRef, useState } from 'react';

/**
 * A popover's open state that closes as a menu does: a press outside it, or Escape (which gives
 * focus back to its button). `onClose` hears every close.
 */
export function usePopover<Panel extends HTMLElement = HTMLDivElement>(onClose?: () => void) {
  const [isOpen, setOpen] = useState(false);
  const buttonRef = useRef<HTMLButtonElement | null>(null);
  const panelRef = useRef<Panel | null>(null);
  const closeRef = useRef(onClose);
  closeRef.current = onClose;
  const close = useCallback((options: { focusButton?: boolean } = {}) => {
    setOpen(false);
    closeRef.current?.();
    if (options.focusButton) buttonRef.current?.focus();
  }, []);
  useEffect(() => {
    if (!isOpen) return;
    const onPointer = (event: PointerEvent) => {
      const target = event.target as Node;
      if (panelRef.current?.contains(target) || buttonRef.current?.contains(target)) return;
      close();
    };
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      event.stopPropagation();
      close({ focusButton: true });
    };
    document.addEventListener('pointerdown', onPointer);
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('pointerdown', onPointer);
      document.removeEventListener('keydown', onKey);
    };
  }, [isOpen, close]);
  return {
    isOpen,
    open: () => setOpen(true),
    close,
    toggle: () => (isOpen ? close() : setOpen(true)),
    buttonRef,
    panelRef,
  };
}
