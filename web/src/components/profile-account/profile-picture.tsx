import { ImageUp, Trash2 } from 'lucide-react';
import { type ChangeEvent, useId, useState } from 'react';
import {
  accountTexts,
  IMAGE_LIMIT_BYTES,
  IMAGE_TYPES,
  useRemovePicture,
  useUploadPicture,
} from '../../lib/account-mutations';
import { ApiError, messageOf } from '../../lib/api';
import { profileImage } from '../../lib/format';
import type { User } from '../../lib/types';
import { Avatar } from '../ui/avatar';
import { Button, buttonClass } from '../ui/button';
import { cx } from '../ui/cx';

const accept = IMAGE_TYPES.join(',');

/** The type and size the upload route would refuse, refused here in its words without sending the file. */
function checkImage(file: File): string | null {
  if (file.type && !(IMAGE_TYPES as readonly string[]).includes(file.type)) return accountTexts.imageWrongType;
  if (file.size > IMAGE_LIMIT_BYTES) return accountTexts.imageTooLarge;
  return null;
}

/** A refusal of the upload or of the save, in the server's words; a bare 413 (a proxy's) as the limit. */
function pictureFailure(error: unknown): string {
  if (error instanceof ApiError && error.status === 413 && !error.hasServerMessage) return accountTexts.imageTooLarge;
  return messageOf(error, accountTexts.pictureFailed);
}

/** The current face (or initials), a picture to upload in its place, and a way back to the initials. */
export function ProfilePicture({ user }: { user: User }) {
  const upload = useUploadPicture(user._id);
  const remove = useRemovePicture(user._id);
  const [error, setError] = useState('');
  const headingId = useId();
  const noteId = useId();
  const isBusy = upload.isPending || remove.isPending;
  const hasPicture = profileImage(user) !== null;

  const choose = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    // Emptied at once, so choosing the same file again (after a refusal) is a change too.
    event.target.value = '';
    if (!file) return;
    const refusal = checkImage(file);
    setError(refusal ?? '');
    if (refusal) return;
    upload.mutate(file, { onError: (failure) => setError(pictureFailure(failure)) });
  };

  const clear = () => {
    setError('');
    remove.mutate(undefined, { onError: (failure) => setError(pictureFailure(failure)) });
  };

  return (
    <section aria-labelledby={headingId} aria-busy={isBusy || undefined} className="px-5 py-5">
      <h3 id={headingId} className="text-sm font-semibold text-slate-900">
        Picture
      </h3>
      <div className="mt-3 flex flex-wrap items-center gap-4">
        <Avatar user={user} size="lg" className="ring-4 ring-brand-50" />
        <div className="min-w-0 flex-1 space-y-2">
          <div className="flex flex-wrap items-center gap-2">
            <label
              className={cx(
                buttonClass('secondary', 'sm'),
                'cursor-pointer has-focus-visible:outline-2 has-focus-visible:outline-offset-2 has-focus-visible:outline-brand-500',
                isBusy && 'cursor-not-allowed opacity-60',
              )}
            >
              <input
                type="file"
                accept={accept}
                className="sr-only"
                disabled={isBusy}
                aria-describedby={noteId}
                onChange={choose}
              />
              <ImageUp className="size-4" aria-hidden="true" />
              Upload a picture
            </label>
            {hasPicture ? (
              <Button
                variant="ghost"
                size="sm"
                icon={<Trash2 className="size-4" aria-hidden="true" />}
                isLoading={remove.isPending}
                disabled={upload.isPending}
                onClick={clear}
              >
                Remove picture
              </Button>
            ) : null}
          </div>
          {error ? (
            <p id={noteId} role="alert" className="text-sm text-rose-600">
              {error}
            </p>
          ) : upload.isPending ? (
            <p id={noteId} role="status" className="text-xs text-slate-500">
              Uploading…
            </p>
          ) : (
            <p id={noteId} className="text-xs text-slate-500">
              JPG, PNG, WebP or GIF, up to 5 MB.
            </p>
          )}
        </div>
      </div>
    </section>
  );
}
