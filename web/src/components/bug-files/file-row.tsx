import { type BugFileDto, isPreviewableImage } from '@bugtrail/domain/vocabulary';
import { Download, FileArchive, File as FileIcon, FileText, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { downloadFile, messageOf } from '../../lib/api';
import { notify } from '../../lib/notify';
import { Button } from '../ui/button';
import { cx } from '../ui/cx';
import { Spinner } from '../ui/spinner';
import { fileKind, formatBytes, useFileObjectUrl } from './file-blob';

/**
 * One attached file in the bug's list: its thumbnail (an image's own bytes, else an icon
 * for its kind), name, kind and size, a download, and a remove button for those who may.
 */

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

export function FileRow({
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
