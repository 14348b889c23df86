import { type BugFileDto, bugFileLimits, bugFileMessages, bugPermissions } from '@bugtrail/domain/vocabulary';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Paperclip } from 'lucide-react';
import { useId, useRef, useState } from 'react';
import { api, messageOf } from '../../lib/api';
import { notify } from '../../lib/notify';
import { queryKeys } from '../../lib/query-keys';
import { profileQuery } from '../../lib/session';
import type { Bug } from '../../lib/types';
import { type BugAsOf, useAtParam } from '../bug-activity/activity-api';
import { ConfirmModal } from '../confirm-modal';
import { Card, CardHeader } from '../ui/card';
import { DropZone } from '../ui/drop-zone';
import { FilePreviewModal } from './file-preview';
import { FileRow } from './file-row';
import { type Upload, UploadProgress } from './upload-progress';

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

type AttachAnswer = { message: string; bug: Bug; files: BugFileDto[] };

const filesOf = (bug: Bug): BugFileDto[] => bug.files ?? [];

/** `onSaved`: each attach or removal, as the bug's version before and after (the admin's form follows it). */
export function BugFiles({ bug, onSaved }: { bug: Bug; onSaved?: (save: { from: number; to: number }) => void }) {
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
    void client.invalidateQueries({ queryKey: queryKeys.bug.detail(bug._id) });
    void client.invalidateQueries({ queryKey: queryKeys.bugs.all });
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
    let version = bug.version;
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
        if (answer?.bug) {
          client.setQueryData(queryKeys.bug.detail(bug._id), answer.bug);
          onSaved?.({ from: version, to: answer.bug.version });
          version = answer.bug.version;
        }
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
        client.setQueryData(queryKeys.bug.detail(bug._id), answer.bug);
        onSaved?.({ from: bug.version, to: answer.bug.version });
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

      <FilePreviewModal preview={preview} onClose={() => setPreview(null)} />

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
