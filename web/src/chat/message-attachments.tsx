/** A message's files: images as thumbnails, other files as chips to download; plain chips, no links, while it is being sent. */
import { Download, FileText, Paperclip } from 'lucide-react';
import { cx } from '../components/ui/cx';
import { formatBytes, isThumbnail, safeAttachmentPath } from './chat-format';
import type { Attachment } from './types';

export function Attachments({
  attachments,
  isMine,
  isTemp,
  onMediaLoad,
}: {
  attachments: Attachment[];
  isMine: boolean;
  isTemp: boolean;
  onMediaLoad: () => void;
}) {
  return (
    <ul className="mt-1.5 flex flex-wrap gap-2" aria-label="Attachments">
      {attachments.map((attachment, index) => {
        const path = isTemp ? null : safeAttachmentPath(attachment);
        const key = `${attachment.path}-${index}`;
        if (path && isThumbnail(attachment)) {
          return (
            <li key={key}>
              <a href={path} target="_blank" rel="noopener noreferrer" className="block" title={attachment.filename}>
                <img
                  src={path}
                  alt={attachment.filename}
                  loading="lazy"
                  onLoad={onMediaLoad}
                  className="max-h-48 max-w-full rounded-lg bg-slate-100 object-cover sm:max-w-60"
                />
              </a>
            </li>
          );
        }
        const body = (
          <>
            {path ? <FileText className="size-4 shrink-0" /> : <Paperclip className="size-4 shrink-0" />}
            <span className="min-w-0 truncate">{attachment.filename}</span>
            {attachment.size ? (
              // Not dimmed with opacity: 12 px text needs 4.5:1 (slate-700 at 70% on slate-100 was 4.14).
              <span className={cx('shrink-0', !isMine && 'text-slate-600')}>{formatBytes(attachment.size)}</span>
            ) : null}
            {path ? <Download className="size-3.5 shrink-0" /> : null}
          </>
        );
        const chip = cx(
          'flex max-w-64 items-center gap-1.5 rounded-lg px-2.5 py-1.5 text-xs',
          isMine ? 'bg-white/15 text-white hover:bg-white/25' : 'bg-slate-100 text-slate-700 hover:bg-slate-200',
        );
        return (
          <li key={key}>
            {path ? (
              <a href={path} download={attachment.filename} rel="noopener noreferrer" className={chip}>
                {body}
              </a>
            ) : (
              <span className={chip}>{body}</span>
            )}
          </li>
        );
      })}
    </ul>
  );
}
