import { MoveHorizontal } from 'lucide-react';
import { type KeyboardEvent, useEffect, useId, useLayoutEffect, useState } from 'react';
import { createPortal } from 'react-dom';
import { usePopover } from '../../../../components/labels/use-popover';
import { cx } from '../../../../components/ui/cx';

export type MoveOption = { label: string; run: () => void };

/**
 * The keyboard's way to move a card (api.md "Board"): a button named "Move WEB-7" opening a menu
 * of the other columns and "Move up" / "Move down". Arrow keys walk the menu, Enter picks, Escape
 * closes it. The menu floats over the page (fixed), so no column's scrolling box cuts it off.
 */
export function MoveMenu({
  name,
  options,
  buttonRef,
}: {
  name: string;
  options: MoveOption[];
  buttonRef?: (node: HTMLButtonElement | null) => void;
}) {
  const popover = usePopover();
  const menuId = useId();
  const [place, setPlace] = useState<{ top: number; left: number; openUp: boolean } | null>(null);

  useLayoutEffect(() => {
    if (!popover.isOpen) return setPlace(null);
    const rect = popover.buttonRef.current?.getBoundingClientRect();
    if (!rect) return;
    const openUp = rect.bottom + 200 > window.innerHeight && rect.top > 200;
    setPlace({
      top: openUp ? rect.top - 4 : rect.bottom + 4,
      left: Math.max(8, Math.min(rect.right - 208, window.innerWidth - 216)),
      openUp,
    });
  }, [popover.isOpen, popover.buttonRef]);

  // Placed (and so visible: a hidden item takes no focus), the menu's first item takes the focus.
  useLayoutEffect(() => {
    if (place) popover.panelRef.current?.querySelector<HTMLElement>('[role="menuitem"]')?.focus();
  }, [place, popover.panelRef]);

  // The page scrolling under a floating menu would leave it behind: it closes instead.
  useEffect(() => {
    if (!popover.isOpen) return;
    const close = (event: Event) => {
      if (popover.panelRef.current?.contains(event.target as Node)) return;
      popover.close();
    };
    window.addEventListener('scroll', close, true);
    window.addEventListener('resize', close);
    return () => {
      window.removeEventListener('scroll', close, true);
      window.removeEventListener('resize', close);
    };
  }, [popover.isOpen, popover.close, popover.panelRef]);

  const onMenuKey = (event: KeyboardEvent<HTMLDivElement>) => {
    const items = [...(popover.panelRef.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? [])];
    const at = items.indexOf(document.activeElement as HTMLElement);
    const focus = (index: number) => items[(index + items.length) % items.length]?.focus();
    if (event.key === 'ArrowDown') focus(at + 1);
    else if (event.key === 'ArrowUp') focus(at - 1);
    else if (event.key === 'Home') focus(0);
    else if (event.key === 'End') focus(items.length - 1);
    else if (event.key === 'Tab') popover.close();
    else return;
    if (event.key !== 'Tab') event.preventDefault();
  };

  return (
    <>
      <button
        ref={(node) => {
          popover.buttonRef.current = node;
          buttonRef?.(node);
        }}
        type="button"
        aria-label={`Move ${name}`}
        aria-haspopup="menu"
        aria-expanded={popover.isOpen}
        aria-controls={popover.isOpen ? menuId : undefined}
        onClick={popover.toggle}
        onKeyDown={(event) => {
          if (event.key === 'ArrowDown' && !popover.isOpen) {
            event.preventDefault();
            popover.open();
          }
        }}
        className="relative z-10 rounded-md p-1 text-slate-500 hover:bg-slate-100 hover:text-slate-900"
      >
        <MoveHorizontal className="size-4" aria-hidden="true" />
      </button>
      {popover.isOpen
        ? createPortal(
            <div
              ref={popover.panelRef}
              id={menuId}
              role="menu"
              aria-label={`Move ${name}`}
              onKeyDown={onMenuKey}
              // React passes events up through the portal: a press here must not start a drag of the card.
              onPointerDown={(event) => event.stopPropagation()}
              className={cx(
                'fixed z-50 w-52 rounded-lg border border-slate-200 bg-white p-1 shadow-lg',
                place?.openUp && '-translate-y-full',
                !place && 'invisible',
              )}
              style={place ? { top: place.top, left: place.left } : undefined}
            >
              {options.map((option) => (
                <button
                  key={option.label}
                  type="button"
                  role="menuitem"
                  tabIndex={-1}
                  onClick={() => {
                    popover.close();
                    option.run();
                  }}
                  className="block w-full rounded-md px-3 py-2 text-left text-sm text-slate-700 hover:bg-slate-100 focus:bg-brand-50 focus:text-brand-800 focus:outline-none"
                >
                  {option.label}
                </button>
              ))}
            </div>,
            document.body,
          )
        : null}
    </>
  );
}
