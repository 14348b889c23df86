/** The files picked to send with a message, shown over the composer (images as previews) until it is sent. */
import { FileText, X } from 'lucide-react';
import { formatBytes } from './chat-format';

export type Picked = { id: string; file: File; preview: string | null };

export function revokeAll(files: Picked[]) {
  for (const f of files) if (f.preview) URL.revokeObjectURL(f.preview);
}

export function PickedFiles({ files, onRemove }: { files: Picked[]; onRemove: (id: string) => void }) {
  return (
    <ul className="mb-2 flex flex-wrap gap-2" aria-label="Files to send">
      {files.map((f) => (
        <li key={f.id} className="relative">
          {f.preview ? (
            <img src={f.preview} alt={f.file.name} className="size-16 rounded-lg object-cover ring-1 ring-slate-200" />
          ) : (
            <span className="flex h-16 w-36 flex-col justify-center gap-0.5 rounded-lg bg-slate-100 px-2.5 text-xs text-slate-700 ring-1 ring-slate-200">
              <span className="flex items-center gap-1 font-medium">
                <FileText className="size-3.5 shrink-0" />
                <span className="truncate">{f.file.name}</span>
              </span>
              <span className="text-slate-500">{formatBytes(f.file.size)}</span>
            </span>
          )}
          <button
            type="button"
            onClick={() => onRemove(f.id)}
            aria-label={`Remove ${f.file.name}`}
            className="absolute -top-1.5 -right-1.5 inline-flex size-5 items-center justify-center rounded-full bg-slate-800 text-white shadow hover:bg-rose-600"
          >
            <X className="size-3" />
          </button>
        </li>
      ))}
    </ul>
  );
}
