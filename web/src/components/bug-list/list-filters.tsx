import { useEffect, useRef, useState } from 'react';
import { useUrlText } from '../../lib/use-url-text';
import { cx } from '../ui/cx';
import { controlClass } from '../ui/field';

/**
 * The filter controls of a list's toolbar: a select of one value, a filter of several
 * values, and the module's text box. Each hands its value up; the toolbar makes it the URL.
 */

const selectClass = cx(controlClass(), 'h-9 w-full sm:w-auto');

export function FilterSelect({
  label,
  value,
  onChange,
  options,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  options: [string, string][];
}) {
  const known = options.some(([v]) => v === value);
  return (
    <label className="flex min-w-0 flex-col text-xs font-medium text-slate-500 sm:w-auto">
      <span className="sr-only">{label}</span>
      <select
        aria-label={label}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        className={cx(selectClass, value && 'border-brand-400 text-brand-800')}
      >
        {options.map(([v, text]) => (
          <option key={v} value={v}>
            {text}
          </option>
        ))}
        {known ? null : <option value={value}>{value}</option>}
      </select>
    </label>
  );
}

/**
 * A filter of several values (issue 40): a button that always says what it filters and by
 * what ("Priority: High, Low"), opening a group of checkboxes; the values travel
 * comma-separated in the URL and to the API. A value the options do not know yet (the
 * team still loading) keeps its place.
 */
export function MultiFilter({
  label,
  value,
  onChange,
  options,
}: {
  label: string;
  value: string | undefined;
  onChange: (value: string | undefined) => void;
  options: [string, string][];
}) {
  // The URL changes a moment after a click (the router navigates asynchronously): until
  // then the boxes show the choice just made, and a second quick click adds to it.
  const [shown, setShown] = useState({ from: value, value });
  if (shown.from !== value) setShown({ from: value, value });
  const chosen = shown.value ? shown.value.split(',') : [];
  const names = chosen.map((v) => options.find(([o]) => o === v)?.[1] ?? v);
  const summary = chosen.length === 0 ? 'Any' : names.join(', ');
  // Closes as a menu does: a click elsewhere or Escape (which gives focus back to the summary).
  const ref = useRef<HTMLDetailsElement | null>(null);
  useEffect(() => {
    const onPointer = (event: PointerEvent) => {
      const el = ref.current;
      if (el?.open && !el.contains(event.target as Node)) el.open = false;
    };
    const onKey = (event: KeyboardEvent) => {
      const el = ref.current;
      if (event.key === 'Escape' && el?.open && el.contains(document.activeElement)) {
        el.open = false;
        el.querySelector('summary')?.focus();
      }
    };
    document.addEventListener('pointerdown', onPointer);
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('pointerdown', onPointer);
      document.removeEventListener('keydown', onKey);
    };
  }, []);
  const toggle = (v: string, on: boolean) => {
    const next = on ? [...chosen, v] : chosen.filter((c) => c !== v);
    const joined = next.length > 0 ? next.join(',') : undefined;
    setShown({ from: value, value: joined });
    onChange(joined);
  };
  return (
    <details ref={ref} className="group relative min-w-0 sm:max-w-80" title={`${label}: ${summary}`}>
      <summary
        className={cx(
          selectClass,
          'flex cursor-pointer list-none items-center gap-1 truncate [&::-webkit-details-marker]:hidden',
          chosen.length > 0 && 'border-brand-400 text-brand-800',
        )}
      >
        <span className="text-slate-500">{label}:</span>
        <span className="min-w-0 truncate">{summary}</span>
      </summary>
      <fieldset className="absolute z-20 mt-1 max-h-72 w-full min-w-40 max-w-[calc(100vw-2rem)] sm:w-72 overflow-y-auto rounded-lg border border-slate-200 bg-white p-2 shadow-lg">
        <legend className="sr-only">{label}</legend>
        {options.map(([v, text]) => (
          <label
            key={v}
            className="flex cursor-pointer items-center gap-2 rounded px-2 py-1.5 text-sm hover:bg-slate-50"
          >
            <input
              type="checkbox"
              checked={chosen.includes(v)}
              onChange={(event) => toggle(v, event.target.checked)}
              className="size-4 shrink-0 accent-brand-600"
            />
            <span className="min-w-0 truncate">{text}</span>
          </label>
        ))}
      </fieldset>
    </details>
  );
}

export function ModuleFilter({ value, onChange }: { value: string; onChange: (value: string) => void }) {
  const [text, setText] = useUrlText(value, onChange, 300);
  return (
    <label className="min-w-0">
      <span className="sr-only">Module</span>
      <input
        aria-label="Module"
        value={text}
        maxLength={50}
        onChange={(event) => setText(event.target.value)}
        placeholder="Module"
        className={cx(controlClass(), 'h-9 sm:w-32', value && 'border-brand-400')}
      />
    </label>
  );
}
