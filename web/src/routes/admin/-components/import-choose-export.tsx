/** Import's first step: which system the export comes from, the file itself, and the upload's progress. */
import {
  type ImportSource,
  importLimits,
  importSourceFiles,
  importSourceLabels,
  importSources,
} from '@bugtrail/domain/vocabulary';
import { FileUp } from 'lucide-react';
import { useId } from 'react';
import { cx } from '../../../components/ui/cx';
import { DropZone } from '../../../components/ui/drop-zone';
import { formatNumber } from '../../../lib/format';
import type { ImportProgress } from '../../../lib/import-upload';

const MB = importLimits.fileBytes / 1024 / 1024;

export function SystemPicker({
  value,
  onChange,
  disabled,
}: {
  value: ImportSource;
  onChange: (system: ImportSource) => void;
  disabled: boolean;
}) {
  const legend = useId();
  return (
    <fieldset aria-labelledby={legend}>
      <legend id={legend} className="text-sm font-medium text-slate-700">
        From
      </legend>
      <div className="mt-2 grid gap-2 sm:grid-cols-3">
        {importSources.map((system) => (
          <label
            key={system}
            className={cx(
              'flex cursor-pointer items-start gap-2 rounded-lg border px-3 py-2 text-sm has-disabled:cursor-default has-disabled:opacity-70',
              value === system ? 'border-brand-500 bg-brand-50/60 ring-1 ring-brand-500' : 'border-slate-200',
            )}
          >
            <input
              type="radio"
              name="import-source"
              className="mt-0.5 size-4 accent-brand-600"
              checked={value === system}
              disabled={disabled}
              onChange={() => onChange(system)}
            />
            <span className="min-w-0">
              <span className="block font-medium text-slate-800">{importSourceLabels[system]}</span>
              <span className="block text-xs text-slate-600">{system === 'github' ? 'Issue JSON' : 'CSV export'}</span>
            </span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}

export function FilePicker({
  file,
  from,
  onChange,
  disabled,
}: {
  file: File | null;
  from: ImportSource;
  onChange: (file: File | null) => void;
  disabled: boolean;
}) {
  return (
    <DropZone
      onFiles={(files) => onChange(files[0] ?? null)}
      disabled={disabled}
      prompt={(isOver) =>
        file ? (
          <p className="mt-2 text-sm break-all text-slate-800">
            <span className="font-medium">{file.name}</span>{' '}
            <span className="text-slate-500">({fileSize(file.size)})</span>
          </p>
        ) : (
          <p className="mt-2 text-sm text-slate-700">{isOver ? 'Drop to choose' : 'Drag the file here, or'}</p>
        )
      }
      button={
        <>
          <FileUp className="size-4" aria-hidden="true" />
          {file ? 'Choose another file' : 'Choose a file'}
        </>
      }
      inputLabel="Export file"
      accept={from === 'github' ? '.json,application/json' : '.csv,text/csv'}
      hint={`${importSourceFiles[from]} · up to ${MB} MB · times without an offset are read in the server's IMPORT_TIMEZONE`}
    />
  );
}

const fileSize = (bytes: number) =>
  bytes < 1024 * 1024 ? `${Math.max(1, Math.round(bytes / 1024))} KB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/** The file going up, then the server checking the rows, then the bugs going in. */
export function ProgressBar({ progress }: { progress: ImportProgress }) {
  const [percent, text] =
    progress.phase === 'uploading'
      ? [
          progress.total > 0 ? Math.floor((progress.sent / progress.total) * 100) : 0,
          `Uploading: ${(progress.sent / 1024 / 1024).toFixed(1)} of ${(progress.total / 1024 / 1024).toFixed(1)} MB`,
        ]
      : progress.phase === 'checking'
        ? [null, 'Checking every row…']
        : [
            progress.total > 0 ? Math.floor((progress.done / progress.total) * 100) : 100,
            `Importing: ${formatNumber(progress.done)} of ${formatNumber(progress.total)} bugs`,
          ];
  return (
    <div className="space-y-1.5" aria-live="polite">
      <div
        className="h-2 overflow-hidden rounded-full bg-slate-100"
        role="progressbar"
        aria-label="Import progress"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent ?? undefined}
        aria-valuetext={text}
      >
        <div
          className={cx('h-full rounded-full bg-brand-600 transition-all', percent === null && 'w-1/3 animate-pulse')}
          style={percent === null ? undefined : { width: `${Math.max(percent, 3)}%` }}
        />
      </div>
      <p className="text-xs font-medium text-slate-600">{text}</p>
    </div>
  );
}
