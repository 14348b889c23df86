import { type FormEvent, useId, useState } from 'react';
import { LabelChip } from '../../../components/labels/label-chip';
import { Button } from '../../../components/ui/button';
import { cx } from '../../../components/ui/cx';
import { TextField } from '../../../components/ui/field';
import { ApiError } from '../../../lib/api';
import { labelPalette } from '../../../lib/label-colors';
import type { LabelDraft } from '../../../lib/labels';

/** The limits the server holds labels to (domain labels/label.schemas.ts). */
export const labelFieldLimits = { nameMax: 50, descriptionMax: 500 } as const;
const HEX = /^#[0-9a-fA-F]{6}$/;

export type LabelFieldErrors = Partial<Record<keyof LabelDraft, string>>;

export function labelFieldErrors(draft: LabelDraft): LabelFieldErrors {
  const errors: LabelFieldErrors = {};
  if (!draft.name.trim()) errors.name = 'Label name is required';
  if (!HEX.test(draft.color)) errors.color = 'Color must be #rrggbb';
  return errors;
}

/** The server's refusal as field errors: 409 is the name's; 400 details by field; else null. */
export function serverFieldErrors(error: unknown): LabelFieldErrors | null {
  if (error instanceof ApiError && error.status === 409) return { name: error.message };
  if (!(error instanceof ApiError)) return null;
  const fields: LabelFieldErrors = {};
  for (const d of error.details)
    if (d.field === 'name' || d.field === 'color' || d.field === 'description') fields[d.field] = d.message;
  return Object.keys(fields).length > 0 ? fields : null;
}

/**
 * A label's name, colour (a swatch, the palette, or a typed `#rrggbb`) and description, with a
 * preview of its chip. Used to create a label and to edit one.
 */
export function LabelForm({
  initial,
  submitLabel,
  onSubmit,
  onCancel,
  isBusy,
  errors,
  onEdit,
}: {
  initial: LabelDraft;
  submitLabel: string;
  onSubmit: (draft: LabelDraft) => void;
  onCancel?: () => void;
  isBusy: boolean;
  /** The server's errors (`errors`) are for what was sent: a change puts them away. */
  errors: LabelFieldErrors;
  onEdit?: () => void;
}) {
  const [draft, setDraft] = useState(initial);
  const [shownErrors, setShownErrors] = useState<LabelFieldErrors>({});
  const allErrors = { ...shownErrors, ...errors };
  const colorId = useId();
  const set = (patch: Partial<LabelDraft>) => {
    setDraft((d) => ({ ...d, ...patch }));
    setShownErrors({});
    onEdit?.();
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found = labelFieldErrors(draft);
    setShownErrors(found);
    if (Object.keys(found).length === 0)
      onSubmit({ name: draft.name.trim(), color: draft.color.toLowerCase(), description: draft.description.trim() });
  };
  const isValidColor = HEX.test(draft.color);
  return (
    <form onSubmit={submit} noValidate className="grid gap-4 sm:grid-cols-2">
      <TextField
        label="Name"
        value={draft.name}
        maxLength={labelFieldLimits.nameMax}
        placeholder="frontend"
        onChange={(event) => set({ name: event.target.value })}
        error={allErrors.name}
      />
      <TextField
        label="Description"
        value={draft.description}
        maxLength={labelFieldLimits.descriptionMax}
        placeholder="Optional: what the label means"
        onChange={(event) => set({ description: event.target.value })}
        error={allErrors.description}
      />
      <fieldset className="min-w-0 sm:col-span-2">
        <legend className="mb-1.5 block text-sm font-medium text-slate-700">Colour</legend>
        <div className="flex flex-wrap items-center gap-3">
          <label className="sr-only" htmlFor={`${colorId}-picker`}>
            Pick a colour
          </label>
          <input
            id={`${colorId}-picker`}
            type="color"
            value={isValidColor ? draft.color.toLowerCase() : '#94a3b8'}
            onChange={(event) => set({ color: event.target.value })}
            className="h-9 w-12 cursor-pointer rounded-lg border border-slate-300 bg-white p-1"
          />
          <label className="sr-only" htmlFor={`${colorId}-hex`}>
            Colour (hex)
          </label>
          <input
            id={`${colorId}-hex`}
            value={draft.color}
            maxLength={7}
            aria-invalid={!!allErrors.color || undefined}
            aria-describedby={allErrors.color ? `${colorId}-error` : undefined}
            onChange={(event) => set({ color: event.target.value.trim() })}
            className={cx(
              'block h-9 w-28 rounded-lg border bg-white px-3 font-mono text-sm text-slate-900 shadow-xs',
              allErrors.color ? 'border-rose-400' : 'border-slate-300',
            )}
          />
          <ul aria-label="Suggested colours" className="flex flex-wrap gap-1.5">
            {labelPalette.map((color) => (
              <li key={color}>
                <button
                  type="button"
                  aria-label={`Use ${color}`}
                  aria-pressed={draft.color.toLowerCase() === color}
                  onClick={() => set({ color })}
                  className={cx(
                    'size-6 rounded-full ring-1 ring-black/10 ring-inset',
                    draft.color.toLowerCase() === color && 'outline-2 outline-offset-2 outline-brand-500',
                  )}
                  style={{ backgroundColor: color }}
                />
              </li>
            ))}
          </ul>
          <span className="flex min-w-0 items-center gap-2 text-sm text-slate-500">
            Preview
            <LabelChip label={{ name: draft.name.trim() || 'label', color: isValidColor ? draft.color : '#94a3b8' }} />
          </span>
        </div>
        {allErrors.color ? (
          <p id={`${colorId}-error`} role="alert" className="mt-1.5 text-sm text-rose-600">
            {allErrors.color}
          </p>
        ) : null}
      </fieldset>
      <div className="flex flex-wrap justify-end gap-2 sm:col-span-2">
        {onCancel ? (
          <Button variant="secondary" onClick={onCancel}>
            Cancel
          </Button>
        ) : null}
        <Button type="submit" isLoading={isBusy}>
          {submitLabel}
        </Button>
      </div>
    </form>
  );
}
