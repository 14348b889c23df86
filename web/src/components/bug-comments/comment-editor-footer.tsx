import type { ReactNode } from 'react';
import { Button } from '../ui/button';
import { cx } from '../ui/cx';
import { COMMENT_MAX_LENGTH } from './comments-api';

/**
 * The line under the comment box: the note on what it takes (or the page's own), the
 * length once it nears the limit, and the buttons (Cancel when the box may close unsent).
 */
export function CommentEditorFooter({
  noteId,
  footerNote,
  length,
  isBusy,
  submitLabel,
  onCancel,
}: {
  /** The box's description when it shows no error. */
  noteId: string;
  footerNote: ReactNode;
  /** The trimmed text's length. */
  length: number;
  isBusy: boolean;
  submitLabel: string;
  onCancel: (() => void) | undefined;
}) {
  const isNearLimit = length > COMMENT_MAX_LENGTH * 0.9;
  return (
    <div className="flex flex-wrap items-center justify-between gap-x-3 gap-y-2">
      <p id={noteId} className="min-w-0 text-xs text-slate-500">
        {footerNote ?? 'Markdown is supported. Type @ to mention someone. Ctrl+Enter sends.'}
        {isNearLimit ? (
          <span className={cx('ml-2 font-medium', length > COMMENT_MAX_LENGTH ? 'text-rose-600' : 'text-amber-700')}>
            {length.toLocaleString()} / {COMMENT_MAX_LENGTH.toLocaleString()}
          </span>
        ) : null}
      </p>
      <div className="ml-auto flex items-center gap-2">
        {onCancel ? (
          <Button variant="secondary" size="sm" onClick={onCancel} disabled={isBusy}>
            Cancel
          </Button>
        ) : null}
        <Button type="submit" size={onCancel ? 'sm' : 'md'} disabled={length === 0} isLoading={isBusy}>
          {submitLabel}
        </Button>
      </div>
    </div>
  );
}
