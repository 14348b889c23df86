import { AlertCircle, CheckCircle2, Paperclip, X } from 'lucide-react';
import { Spinner } from '../ui/spinner';
import { formatBytes } from './file-blob';

/**
 * The files being attached, one request each: a bar while any is still on its way, then
 * each file's state (waiting, uploading, attached, refused with the reason). A refused one
 * stays until dismissed.
 */

export type Upload = {
  key: number;
  name: string;
  size: number;
  state: 'waiting' | 'uploading' | 'done' | 'failed';
  error?: string;
};

export function UploadProgress({ uploads, onDismiss }: { uploads: Upload[]; onDismiss: (key: number) => void }) {
  const finished = uploads.filter((u) => u.state === 'done' || u.state === 'failed').length;
  const running = uploads.some((u) => u.state === 'waiting' || u.state === 'uploading');
  const percent = uploads.length === 0 ? 0 : Math.round((finished / uploads.length) * 100);
  return (
    <div className="space-y-2" aria-live="polite">
      {running ? (
        <div className="flex items-center gap-3">
          <div
            className="h-1.5 flex-1 overflow-hidden rounded-full bg-slate-100"
            role="progressbar"
            aria-label="Upload progress"
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={percent}
          >
            <div
              className="h-full rounded-full bg-brand-600 transition-all"
              style={{ width: `${Math.max(percent, 4)}%` }}
            />
          </div>
          <span className="text-xs font-medium text-slate-600">
            {finished} of {uploads.length}
          </span>
        </div>
      ) : null}
      <ul className="space-y-1.5">
        {uploads.map((u) => (
          <li key={u.key} className="flex items-start gap-2 text-sm">
            <span className="mt-0.5 shrink-0">
              {u.state === 'uploading' ? (
                <Spinner className="size-4 text-brand-600" label={`Uploading ${u.name}`} />
              ) : u.state === 'done' ? (
                <CheckCircle2 className="size-4 text-lime-600" aria-label="Attached" />
              ) : u.state === 'failed' ? (
                <AlertCircle className="size-4 text-rose-600" aria-label="Not attached" />
              ) : (
                <Paperclip className="size-4 text-slate-400" aria-label="Waiting" />
              )}
            </span>
            <span className="min-w-0 flex-1">
              <span className="block truncate text-slate-700">
                {u.name} <span className="text-xs text-slate-500">({formatBytes(u.size)})</span>
              </span>
              {u.error ? <span className="block text-xs text-rose-700">{u.error}</span> : null}
            </span>
            {u.state === 'failed' ? (
              <button
                type="button"
                className="shrink-0 rounded p-0.5 text-slate-400 hover:text-slate-700"
                onClick={() => onDismiss(u.key)}
                aria-label={`Dismiss ${u.name}`}
              >
                <X className="size-4" aria-hidden="true" />
              </button>
            ) : null}
          </li>
        ))}
      </ul>
    </div>
  );
}
