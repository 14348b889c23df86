import { UploadCloud } from 'lucide-react';
import { type ChangeEvent, type ReactNode, useId, useState } from 'react';
import { cx } from './cx';

type DropZoneProps = {
  /** Dropped or picked files, in order; the picker is emptied after, so the same file can be picked again. */
  onFiles: (files: File[]) => void;
  disabled: boolean;
  /** What the zone says above its button, while something is dragged over it and while not. */
  prompt: (isOver: boolean) => ReactNode;
  /** The button's words and icon, and the picker's accessible name. */
  button: ReactNode;
  inputLabel: string;
  accept: string;
  multiple?: boolean;
  /** The line under the button (limits, kinds), also the picker's description. */
  hint: ReactNode;
  'data-testid'?: string;
};

/**
 * A dashed zone to drop files on, with a keyboard-reachable button that opens the file
 * picker: dropping is the mouse's shortcut for the same choice. Used by a bug's files and
 * the admin's import.
 */
export function DropZone({
  onFiles,
  disabled,
  prompt,
  button,
  inputLabel,
  accept,
  multiple = false,
  hint,
  'data-testid': testId,
}: DropZoneProps) {
  const inputId = useId();
  const hintId = useId();
  const [isOver, setOver] = useState(false);
  const onPick = (event: ChangeEvent<HTMLInputElement>) => {
    const picked = [...(event.target.files ?? [])];
    event.target.value = '';
    onFiles(picked);
  };
  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: dropping is the mouse's shortcut; the button inside picks the same files
    <div
      data-testid={testId}
      onDragEnter={(event) => {
        event.preventDefault();
        setOver(true);
      }}
      onDragOver={(event) => {
        event.preventDefault();
        event.dataTransfer.dropEffect = disabled ? 'none' : 'copy';
      }}
      onDragLeave={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setOver(false);
      }}
      onDrop={(event) => {
        event.preventDefault();
        setOver(false);
        if (!disabled) onFiles([...event.dataTransfer.files]);
      }}
      className={cx(
        'rounded-xl border-2 border-dashed px-4 py-5 text-center transition-colors',
        isOver ? 'border-brand-500 bg-brand-50' : 'border-slate-200 bg-slate-50/60',
      )}
    >
      <UploadCloud className="mx-auto size-7 text-slate-400" aria-hidden="true" />
      {prompt(isOver)}
      <input
        id={inputId}
        type="file"
        multiple={multiple}
        accept={accept}
        className="peer sr-only"
        aria-label={inputLabel}
        aria-describedby={hintId}
        onChange={onPick}
        disabled={disabled}
      />
      <label
        htmlFor={inputId}
        className={cx(
          'mt-2 inline-flex h-8 cursor-pointer items-center gap-1.5 rounded-lg bg-white px-3 text-sm font-medium text-slate-700 shadow-sm ring-1 ring-slate-200 hover:bg-slate-50',
          'peer-focus-visible:ring-2 peer-focus-visible:ring-brand-500',
          disabled && 'pointer-events-none opacity-60',
        )}
      >
        {button}
      </label>
      <p id={hintId} className="mt-2 text-xs text-slate-500">
        {hint}
      </p>
    </div>
  );
}
