import type { BugFileDto } from '@bugtrail/domain/vocabulary';
import { Download } from 'lucide-react';
import { downloadFile, messageOf } from '../../lib/api';
import { notify } from '../../lib/notify';
import { Button } from '../ui/button';
import { Modal } from '../ui/modal';

/** The larger preview of an image file, opened from its thumbnail, with a download in the footer. */
export function FilePreviewModal({
  preview,
  onClose,
}: {
  preview: { file: BugFileDto; src: string } | null;
  onClose: () => void;
}) {
  return (
    <Modal
      isOpen={preview !== null}
      onClose={onClose}
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
  );
}
