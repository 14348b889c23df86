import {
  type BugFileDto,
  bugFileLimits,
  bugFileMessages,
  bugPermissions,
  isPreviewableImage,
} from '@bugtrail/domain/vocabulary';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  AlertCircle,
  CheckCircle2,
  Download,
  FileArchive,
  File as FileIcon,
  FileText,
  Paperclip,
  Trash2,
  X,
} from 'lucide-react';
import { useId, useRef, useState } from 'react';
import { api, downloadFile, messageOf } from '../../lib/api';
import { notify } from '../../lib/notify';
import { profileQuery } from '../../lib/session';
import type { Bug } from '../../lib/types';
import { type BugAsOf, useAtParam } from '../bug-activity/activity-api';
import { ConfirmModal } from '../confirm-modal';
import { Button } from '../ui/button';
import { Card, CardHeader } from '../ui/card';
import { cx } from '../ui/cx';
import { DropZone } from '../ui/drop-zone';
import { Modal } from '../ui/modal';
import { Spinner } from '../ui/spinner';
import { fileKind, formatBytes, useFileObjectUrl } from './file-blob';

/**
 * The files attached to a bug (issue 16), beside its links: a list with name, size and
 * kind, image thumbnails that open a larger preview, a download for each, and for those
 * who may edit the bug (admins, its reporting tester) a drop zone, a file picker, the
 * progress of each upload and a remove button. The server is the guard; this only hides
 * what it would refuse. A bug of a past moment (`?at=`) or a deleted one is read-only.
 */

const ACCEPT =
  '.png,.jpg,.jpeg,.gif,.webp,.pdf,.zip,.txt,.log,image/png,image/jpeg,image/gif,image/webp,application/pdf,application/zip,text/plain';
const MB = bugFileLimits.fileBytes / (1024 * 1024);

type Upload = {
  key: number;
  name: string;
  size: number;
  state: 'waiting' | 'uploading' | 'done' | 'failed';
  error?: string;
};

type AttachAnswer = { message: string; bug: Bug; files: BugFileDto[] };

const filesOf = (bug: Bug): BugFileDto[] => bug.files ?? [];

function FileGlyph({ contentType, className }: { contentType: string; className?: string }) {
  if (contentType === 'application/zip') return <FileArchive className={className} aria-hidden="true" />;
  if (contentType === 'text/plain' || contentType === 'application/pdf') {
    return <FileText className={className} aria-hidden="true" />;
  }
  return <FileIcon className={className} aria-hidden="true" />;
}

/** The thumbnail of an image (its bytes fetched with the token), else the file's icon. */
function Thumbnail({ file, onOpen }: { file: BugFileDto; onOpen: (src: string) => void }) {
  const isImage = isPreviewableImage(file.contentType);
  const { src, failed } = useFileObjectUrl(isImage ? file.url : null);
  const box =
    'flex size-14 shrink-0 items-center justify-center overflow-hidden rounded-lg border border-slate-200 bg-slate-50';
  if (!isImage || failed) {
    return (
      <span className={box}>
        <FileGlyph contentType={file.contentType} className="size-6 text-slate-400" />
      </span>
    );
  }
  if (!src) {
    return (
      <span className={cx(box, 'text-slate-400')}>
        <Spinner className="size-4" label={`Loading ${file.name}`} />
      </span>
    );
  }
  return (
    <button
      type="button"
      className={cx(box, 'cursor-zoom-in p-0 focus-visible:ring-2 focus-visible:ring-brand-500')}
      onClick={() => onOpen(src)}
      aria-label={`Preview ${file.name}`}
    >
      <img src={src} alt={file.name} className="size-full object-cover" data-testid="bug-file-thumbnail" />
    </button>
  );
}

function FileRow({
  file,
  canRemove,
  onPreview,
  onRemove,
}: {
  file: BugFileDto;
  canRemove: boolean;
  onPreview: (file: BugFileDto, src: string) => void;
  onRemove: (file: BugFileDto) => void;
}) {
  const [isDownloading, setDownloading] = useState(false);
  const download = async () => {
    setDownloading(true);
    try {
      await downloadFile(file.url, file.name);
    } catch (error) {
      notify.error(messageOf(error, 'The file could not be downloaded.'));
    } finally {
      setDownloading(false);
    }
  };
  return (
    <li className="flex items-center gap-3 py-2.5">
      <Thumbnail file={file} onOpen={(src) => onPreview(file, src)} />
      <div className="min-w-0 flex-1">
        <p className="line-clamp-2 text-sm font-medium text-slate-800 [overflow-wrap:anywhere]" title={file.name}>
          {file.name}
        </p>
        <p className="text-xs text-slate-500">
          {fileKind(file.contentType)} · {formatBytes(file.size)}
        </p>
      </div>
      <div className="flex shrink-0 items-center gap-1">
        <Button
          variant="ghost"
          size="sm"
          className="px-2"
          icon={<Download className="size-4" aria-hidden="true" />}
          isLoading={isDownloading}
          onClick={download}
          aria-label={`Download ${file.name}`}
          title="Download"
        />
        {canRemove ? (
          <Button
            variant="ghost"
            size="sm"
            className="px-2 hover:text-rose-700"
            icon={<Trash2 className="size-4" aria-hidden="true" />}
            onClick={() => onRemove(file)}
            aria-label={`Remove ${file.name}`}
            title="Remove"
          />
        ) : null}
      </div>
    </li>
  );
}

function UploadProgress({ uploads, onDismiss }: { uploads: Upload[]; onDismiss: (key: number) => void }) {
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

export function BugFiles({ bug }: { bug: Bug }) {
  const client = useQueryClient();
  const { data: me } = useQuery(profileQuery());
  const [at] = useAtParam();
  const deleted = (bug as BugAsOf).deleted === true;
  const canEdit =
    !!me &&
    at === undefined &&
    bugPermissions.canEdit(
      { id: me._id, role: me.role },
      { reporterId: bug.createdBy._id, assigneeIds: bug.assignedTo.map((u) => u._id), deleted },
    );
  const files = filesOf(bug);
  const inputId = useId();
  const nextKey = useRef(0);
  const [uploads, setUploads] = useState<Upload[]>([]);
  const [preview, setPreview] = useState<{ file: BugFileDto; src: string } | null>(null);
  const [removing, setRemoving] = useState<BugFileDto | null>(null);
  const [isRemoving, setIsRemoving] = useState(false);
  const busy = uploads.some((u) => u.state === 'waiting' || u.state === 'uploading');

  const patch = (key: number, change: Partial<Upload>) =>
    setUploads((list) => list.map((u) => (u.key === key ? { ...u, ...change } : u)));

  const refresh = () => {
    void client.invalidateQueries({ queryKey: ['bug', bug._id] });
    void client.invalidateQueries({ queryKey: ['bugs'] });
  };

  /** One request per file, in order: each shows its own progress and its own refusal. */
  async function uploadAll(picked: File[]) {
    if (picked.length === 0) return;
    const queued = picked.map((file): Upload & { file: File } => {
      const key = nextKey.current++;
      const tooLarge = file.size > bugFileLimits.fileBytes;
      const empty = file.size === 0;
      return {
        key,
        file,
        name: file.name,
        size: file.size,
        state: tooLarge || empty ? 'failed' : 'waiting',
        ...(tooLarge ? { error: bugFileMessages.tooLarge } : empty ? { error: bugFileMessages.empty } : {}),
      };
    });
    // Earlier successes make way; earlier failures stay until dismissed.
    setUploads((list) => [...list.filter((u) => u.state === 'failed'), ...queued.map(({ file: _, ...u }) => u)]);
    let attached = 0;
    for (const item of queued) {
      if (item.state === 'failed') continue;
      patch(item.key, { state: 'uploading' });
      const form = new FormData();
      form.append('file', item.file, item.file.name);
      try {
        const answer = await api<AttachAnswer>(`/api/bugs/${encodeURIComponent(bug._id)}/attachments`, {
          method: 'POST',
          form,
        });
        if (answer?.bug) client.setQueryData(['bug', bug._id], answer.bug);
        patch(item.key, { state: 'done' });
        attached += 1;
      } catch (error) {
        patch(item.key, { state: 'failed', error: messageOf(error, 'The file could not be attached.') });
      }
    }
    if (attached > 0) {
      notify.success(attached === 1 ? 'File attached' : `${attached} files attached`);
      refresh();
    }
    setUploads((list) => list.filter((u) => u.state !== 'done'));
  }

  async function remove() {
    if (!removing) return;
    setIsRemoving(true);
    try {
      const answer = await api<{ message: string; bug: Bug }>(
        `/api/bugs/${encodeURIComponent(bug._id)}/attachments/${encodeURIComponent(removing._id)}`,
        { method: 'DELETE' },
      );
      if (answer?.bug) {
        client.setQueryData(['bug', bug._id], answer.bug);
        notify.success('File removed');
      }
      refresh();
      setRemoving(null);
    } catch (error) {
      notify.error(messageOf(error, 'The file could not be removed.'));
    } finally {
      setIsRemoving(false);
    }
  }

  return (
    <Card role="region" aria-labelledby={`${inputId}-title`}>
      <CardHeader
        title={<span id={`${inputId}-title`}>Files</span>}
        subtitle={files.length === 0 ? 'No files' : files.length === 1 ? '1 file' : `${files.length} files`}
      />
      <div className="space-y-4 p-5">
        {files.length > 0 ? (
          <ul className="-mt-2.5 divide-y divide-slate-100" aria-label="Attached files">
            {files.map((file) => (
              <FileRow
                key={file._id}
                file={file}
                canRemove={canEdit}
                onPreview={(f, src) => setPreview({ file: f, src })}
                onRemove={setRemoving}
              />
            ))}
          </ul>
        ) : canEdit ? null : (
          <p className="text-sm text-slate-500">No files attached</p>
        )}

        {canEdit ? (
          <DropZone
            data-testid="bug-files-dropzone"
            onFiles={(files) => void uploadAll(files)}
            disabled={busy}
            prompt={(isOver) => (
              <p className="mt-2 text-sm text-slate-700">{isOver ? 'Drop to attach' : 'Drag files here, or'}</p>
            )}
            button={
              <>
                <Paperclip className="size-4" aria-hidden="true" />
                Choose files
              </>
            }
            inputLabel="Attach files"
            accept={ACCEPT}
            multiple
            hint={`Images, PDF, text, logs or zip · up to ${MB} MB each`}
          />
        ) : null}

        {uploads.length > 0 ? (
          <UploadProgress
            uploads={uploads}
            onDismiss={(key) => setUploads((list) => list.filter((u) => u.key !== key))}
          />
        ) : null}
      </div>

      <Modal
        isOpen={preview !== null}
        onClose={() => setPreview(null)}
        title={preview?.file.name ?? ''}
        size="lg"
        footer={
          preview ? (
            <Button
              icon={<Download className="size-4" aria-hidden="true" />}
              onClick={() => {
                void downloadFile(preview.file.url, preview.file.name).catch((error: unknown) =>
                  notify.error(messageOf(error, 'The file could not be downloaded.')),
                );
              }}
            >
              Download
            </Button>
          ) : null
        }
      >
        {preview ? (
          <img
            src={preview.src}
            alt={preview.file.name}
            className="mx-auto max-h-[65vh] w-auto max-w-full rounded-lg object-contain"
            data-testid="bug-file-preview"
          />
        ) : null}
      </Modal>

      <ConfirmModal
        isOpen={removing !== null}
        title="Remove file?"
        confirmLabel="Remove"
        isBusy={isRemoving}
        onConfirm={() => void remove()}
        onClose={() => setRemoving(null)}
      >
        <p>
          <span className="font-medium text-slate-800 [overflow-wrap:anywhere]">{removing?.name}</span> will be removed
          from the bug and the file deleted. The bug's history keeps its name.
        </p>
      </ConfirmModal>
    </Card>
  );
}
