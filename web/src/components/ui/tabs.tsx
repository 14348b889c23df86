import { useRef } from 'react';
import { formatNumber } from '../../lib/format';
import { cx } from './cx';

export type Tab = { value: string; label: string; count?: number };

/** Arrow keys move between tabs, as WAI-ARIA tabs do. */
export function Tabs({
  tabs,
  value,
  onChange,
  label,
}: {
  tabs: Tab[];
  value: string;
  onChange: (value: string) => void;
  label: string;
}) {
  const list = useRef<HTMLDivElement>(null);
  const move = (delta: number) => {
    const index = tabs.findIndex((tab) => tab.value === value);
    const next = tabs[(index + delta + tabs.length) % tabs.length];
    if (!next) return;
    onChange(next.value);
    list.current?.querySelector<HTMLButtonElement>(`[data-value="${CSS.escape(next.value)}"]`)?.focus();
  };
  return (
    <div
      ref={list}
      role="tablist"
      aria-label={label}
      className="inline-flex max-w-full flex-wrap gap-1 rounded-xl bg-slate-100 p-1"
      onKeyDown={(event) => {
        if (event.key === 'ArrowRight') move(1);
        if (event.key === 'ArrowLeft') move(-1);
      }}
    >
      {tabs.map((tab) => {
        const isActive = tab.value === value;
        return (
          <button
            key={tab.value}
            type="button"
            role="tab"
            data-value={tab.value}
            aria-selected={isActive}
            tabIndex={isActive ? 0 : -1}
            onClick={() => onChange(tab.value)}
            className={cx(
              'inline-flex items-center gap-2 rounded-lg px-3.5 py-1.5 text-sm font-medium whitespace-nowrap transition',
              isActive ? 'bg-white text-slate-900 shadow-sm' : 'text-slate-600 hover:text-slate-900',
            )}
          >
            {tab.label}
            {tab.count !== undefined ? (
              <span
                className={cx(
                  'rounded-full px-2 py-px text-xs',
                  isActive ? 'bg-brand-600 text-white' : 'bg-slate-200 text-slate-700',
                )}
              >
                {formatNumber(tab.count)}
              </span>
            ) : null}
          </button>
        );
      })}
    </div>
  );
}
