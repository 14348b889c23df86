import {
  IMPORT_STREAM_TYPE,
  type ImportAnswer,
  type ImportSource,
  type ImportStreamLine,
} from '@bugtrail/domain/vocabulary';
import { ApiError, errorTexts, getToken } from './api';

/** Where an import is: the file going up, the server checking every row, the bugs being appended. */
export type ImportProgress =
  | Readonly<{ phase: 'uploading'; sent: number; total: number }>
  | Readonly<{ phase: 'checking' }>
  | Readonly<{ phase: 'importing'; done: number; total: number }>;

/**
 * `POST /api/import` for the admin's Import page. Not through api(): a file of up to 200 MB
 * and 100,000 appends outlast its 30 s timeout, and the page shows progress both ways
 * (XMLHttpRequest's upload events for the file, the answer's JSON lines for the appends).
 */
export function uploadImport(
  file: File,
  options: { from: ImportSource; dryRun: boolean; skipInvalid: boolean; project?: string | undefined },
  onProgress: (progress: ImportProgress) => void,
): Promise<ImportAnswer> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    const query = new URLSearchParams({
      from: options.from,
      dryRun: String(options.dryRun),
      skipInvalid: String(options.skipInvalid),
      // The project the bugs go into (issue 35); the default project without it.
      ...(options.project ? { project: options.project } : {}),
    });
    xhr.open('POST', `/api/import?${query}`);
    const token = getToken();
    if (token) xhr.setRequestHeader('Authorization', `Bearer ${token}`);
    xhr.setRequestHeader('Content-Type', options.from === 'github' ? 'application/json' : 'text/csv');
    xhr.setRequestHeader('Accept', `${IMPORT_STREAM_TYPE}, application/json`);
    xhr.upload.onprogress = (event) => {
      onProgress({ phase: 'uploading', sent: event.loaded, total: event.lengthComputable ? event.total : file.size });
    };
    xhr.upload.onload = () => onProgress({ phase: 'checking' });

    let read = 0;
    let result: ImportAnswer | null = null;
    let failure: ApiError | null = null;
    const readLines = () => {
      if (!(xhr.getResponseHeader('Content-Type') ?? '').includes(IMPORT_STREAM_TYPE)) return;
      const text = xhr.responseText;
      let newline = text.indexOf('\n', read);
      while (newline >= 0) {
        const line = text.slice(read, newline).trim();
        read = newline + 1;
        newline = text.indexOf('\n', read);
        if (!line) continue;
        const parsed = JSON.parse(line) as ImportStreamLine;
        if ('progress' in parsed) onProgress({ phase: 'importing', ...parsed.progress });
        else if ('result' in parsed) result = parsed.result;
        else failure = new ApiError(parsed.error.status, parsed.error.message, [], true);
      }
    };
    xhr.onprogress = readLines;
    xhr.onerror = () => reject(new ApiError(0, errorTexts.unexpected));
    xhr.onload = () => {
      if (xhr.status >= 200 && xhr.status < 300) {
        readLines();
        if (failure) return reject(failure);
        if (result) return resolve(result);
        try {
          return resolve(JSON.parse(xhr.responseText) as ImportAnswer);
        } catch {
          return reject(new ApiError(xhr.status, errorTexts.unexpected));
        }
      }
      let message = '';
      try {
        message = String((JSON.parse(xhr.responseText) as { message?: unknown }).message ?? '');
      } catch {
        // no JSON: the status says it
      }
      reject(new ApiError(xhr.status, message || `Server error: ${xhr.status}`, [], Boolean(message)));
    };
    onProgress({ phase: 'uploading', sent: 0, total: file.size });
    xhr.send(file);
  });
}
