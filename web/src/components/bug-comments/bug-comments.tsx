import { useQuery } from '@tanstack/react-query';
import { MessageSquare, RefreshCw } from 'lucide-react';
import { useCallback, useEffect, useId, useRef, useState } from 'react';
import { ApiError, messageOf } from '../../lib/api';
import { notify } from '../../lib/notify';
import { profileQuery } from '../../lib/session';
import type { Bug, Role } from '../../lib/types';
import { useNow } from '../bug-activity/moment';
import { type GuardedMove, useUnsavedChangesGuard } from '../bug-editor';
import { ConfirmModal } from '../confirm-modal';
import { Button } from '../ui/button';
import { Card } from '../ui/card';
import { cx } from '../ui/cx';
import { Skeleton } from '../ui/skeleton';
import { CommentEditor } from './comment-editor';
import { CommentItem, loadMarkdown } from './comment-item';
import {
  type BugComment,
  bugCommentsQuery,
  type CommentDraft,
  commentTexts,
  useAddComment,
  useDeleteComment,
  useEditComment,
} from './comments-api';
import type { Person } from './mentions';
import { useCommentPeople } from './use-comment-people';

/**
 * The discussion under a bug, for everyone who may view it: the comments oldest first
 * (markdown, mentions highlighted), the author's inline edit, the author's or an admin's
 * delete, and a composer. Auditors read it and write nothing (no composer, no actions).
 * A half-written comment or edit holds the page like an unsaved form does; moving through
 * the bug's history (`?at=`) keeps the section on screen, so that is let through.
 */

/** The server's reason when it gave one (its word on the body first), else the fallback. */
function refusal(error: unknown, fallback: string): string {
  const onBody = error instanceof ApiError ? error.details.find((detail) => detail.field === 'body') : undefined;
  return onBody?.message ?? messageOf(error, fallback);
}

/** Only the time travel's `?at=` differs: the comments stay mounted, drafts and all. */
function isTimeTravel({ current, next }: GuardedMove): boolean {
  if (current.pathname !== next.pathname) return false;
  const { at: _a, ...from } = (current.search ?? {}) as Record<string, unknown>;
  const { at: _b, ...to } = (next.search ?? {}) as Record<string, unknown>;
  return JSON.stringify(from) === JSON.stringify(to);
}

export function BugComments({ bug, viewAs, className }: { bug: Bug; viewAs: Role; className?: string }) {
  const headingId = useId();
  useEffect(() => {
    void loadMarkdown();
  }, []);
  const comments = useQuery(bugCommentsQuery(bug._id));
  // One clock for every comment's "3 minutes ago".
  const now = useNow();
  const { data: me } = useQuery(profileQuery());
  const { candidates, people } = useCommentPeople(bug, comments.data, me?._id);
  const canWrite = viewAs !== 'auditor';
  const isAdmin = viewAs === 'admin';

  const add = useAddComment(bug._id);
  const edit = useEditComment(bug._id);
  const remove = useDeleteComment(bug._id);
  const [addError, setAddError] = useState<string | null>(null);
  const [editing, setEditing] = useState<string | null>(null);
  const [editError, setEditError] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<BugComment | null>(null);

  const guard = useUnsavedChangesGuard({
    letThrough: isTimeTravel,
    message: 'You have a comment that is not posted yet. Leave the page and lose it?',
  });
  // The composer and an open edit each say whether they hold unsent text.
  const dirty = useRef(new Set<string>());
  const { setDirty } = guard;
  const reportDirty = useCallback(
    (key: string, isDirty: boolean) => {
      if (isDirty) dirty.current.add(key);
      else dirty.current.delete(key);
      setDirty(dirty.current.size > 0);
    },
    [setDirty],
  );
  const onComposerDirty = useCallback((isDirty: boolean) => reportDirty('new', isDirty), [reportDirty]);
  const onEditDirty = useCallback((isDirty: boolean) => reportDirty('edit', isDirty), [reportDirty]);

  const submitNew = async (draft: CommentDraft) => {
    setAddError(null);
    try {
      await add.mutateAsync(draft);
      return true;
    } catch (error) {
      setAddError(refusal(error, commentTexts.addFailed));
      return false;
    }
  };

  const submitEdit = async (commentId: string, draft: CommentDraft) => {
    setEditError(null);
    try {
      await edit.mutateAsync({ commentId, draft });
      setEditing(null);
      return true;
    } catch (error) {
      setEditError(refusal(error, commentTexts.editFailed));
      return false;
    }
  };

  const list = comments.data ?? [];
  const count = list.filter((c) => !c.isDeleted).length;

  return (
    <Card role="region" aria-labelledby={headingId} className={cx('min-w-0', className)}>
      <div className="flex items-center gap-2 border-b border-slate-100 px-5 py-4">
        <h2 id={headingId} className="text-base font-semibold text-slate-900">
          Comments
        </h2>
        {comments.data ? (
          <span className="rounded-full bg-slate-100 px-2 py-0.5 text-xs font-medium text-slate-600">
            <span className="sr-only">(</span>
            {count}
            <span className="sr-only">)</span>
          </span>
        ) : null}
      </div>
      <div className="space-y-5 p-5">
        {comments.isPending ? (
          <div className="space-y-3" aria-busy="true">
            <Skeleton className="h-16 rounded-lg" />
            <Skeleton className="h-16 rounded-lg" />
          </div>
        ) : comments.isError && !comments.data ? (
          <div className="flex flex-wrap items-center gap-3 text-sm text-slate-600">
            <p>{messageOf(comments.error, 'The comments could not be loaded')}</p>
            <Button
              variant="secondary"
              size="sm"
              icon={<RefreshCw className="size-4" />}
              onClick={() => void comments.refetch()}
            >
              Try again
            </Button>
          </div>
        ) : list.length === 0 ? (
          <p className="flex items-center gap-2 text-sm text-slate-500">
            <MessageSquare className="size-4 shrink-0" aria-hidden="true" />
            {canWrite ? 'No comments yet. Start the discussion below.' : 'No comments yet'}
          </p>
        ) : (
          <ol className="space-y-4" aria-label="Comments, oldest first">
            {list.map((comment) => (
              <CommentItem
                key={comment._id}
                comment={comment}
                now={now}
                people={people}
                selfId={me?._id}
                canEdit={canWrite && !comment.isDeleted && comment.author._id === me?._id}
                canDelete={canWrite && !comment.isDeleted && (isAdmin || comment.author._id === me?._id)}
                isEditing={editing === comment._id && !comment.isDeleted}
                renderEditor={() => (
                  <CommentEditor
                    label="Edit comment"
                    isLabelVisible={false}
                    initialBody={comment.body}
                    initialMentions={comment.mentions.map((id) => people.get(id)).filter((p): p is Person => !!p)}
                    candidates={candidates}
                    submitLabel="Save"
                    isBusy={edit.isPending}
                    error={editError}
                    onEdited={() => setEditError(null)}
                    onSubmit={(draft) => submitEdit(comment._id, draft)}
                    onCancel={() => {
                      setEditing(null);
                      setEditError(null);
                    }}
                    onDirtyChange={onEditDirty}
                    autoFocus
                  />
                )}
                onEdit={() => {
                  setEditError(null);
                  setEditing(comment._id);
                }}
                onDelete={() => setDeleting(comment)}
              />
            ))}
          </ol>
        )}
        {canWrite ? (
          <div className={cx(list.length > 0 && 'border-t border-slate-100 pt-5')}>
            <CommentEditor
              label="Add a comment"
              candidates={candidates}
              submitLabel="Comment"
              isBusy={add.isPending}
              error={addError}
              onEdited={() => setAddError(null)}
              onSubmit={submitNew}
              onDirtyChange={onComposerDirty}
              placeholder="Write a comment… (@ to mention someone)"
            />
          </div>
        ) : null}
      </div>
      <ConfirmModal
        isOpen={deleting !== null}
        title="Delete comment"
        confirmLabel="Delete comment"
        isBusy={remove.isPending}
        onClose={() => setDeleting(null)}
        onConfirm={() => {
          if (!deleting) return;
          remove.mutate(deleting._id, {
            onSuccess: () => setDeleting(null),
            onError: (error) => notify.error(messageOf(error, commentTexts.deleteFailed)),
          });
        }}
      >
        {deleting && deleting.author._id !== me?._id
          ? `Delete ${deleting.author.name}’s comment? It will read “${commentTexts.deleted}” for everyone.`
          : `Delete your comment? It will read “${commentTexts.deleted}” for everyone.`}
      </ConfirmModal>
      {guard.prompt}
    </Card>
  );
}
