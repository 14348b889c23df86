import { Pencil, Trash2 } from 'lucide-react';
import { lazy, type ReactNode, Suspense, useId, useMemo } from 'react';
import { formatExact, formatRelative } from '../bug-activity/moment';
import { Avatar } from '../ui/avatar';
import { Button } from '../ui/button';
import { type BugComment, commentTexts } from './comments-api';
import type { Person } from './mentions';

/**
 * One comment in the discussion: its author and when, "(edited)", the author's Edit and
 * the Delete button, and its body as markdown (or the edit box in its place, or the word
 * that it was deleted).
 */

/*
 * The markdown renderer (react-markdown with GFM) is most of this section's weight: it
 * loads on its own, started as soon as the section mounts, so the bug page does not
 * wait for it. Until it is there a comment shows its text as typed (React text, inert).
 */
export const loadMarkdown = () => import('./comment-markdown');
const CommentMarkdown = lazy(() => loadMarkdown().then((module) => ({ default: module.CommentMarkdown })));

function PlainBody({ body }: { body: string }) {
  return (
    <p className="text-sm leading-6 break-words whitespace-pre-wrap text-slate-700 [overflow-wrap:anywhere]">{body}</p>
  );
}

export function CommentItem({
  comment,
  now,
  people,
  selfId,
  canEdit,
  canDelete,
  isEditing,
  renderEditor,
  onEdit,
  onDelete,
}: {
  comment: BugComment;
  now: number;
  people: ReadonlyMap<string, Person>;
  selfId: string | undefined;
  canEdit: boolean;
  canDelete: boolean;
  isEditing: boolean;
  renderEditor: () => ReactNode;
  onEdit: () => void;
  onDelete: () => void;
}) {
  const author = people.get(comment.author._id) ?? comment.author;
  const mentioned = useMemo(
    () => comment.mentions.map((id) => people.get(id)).filter((p): p is Person => !!p),
    [comment.mentions, people],
  );
  const labelId = useId();
  return (
    <li className="flex gap-3" data-comment-id={comment._id}>
      <Avatar user={author} size="sm" className="mt-0.5" />
      <article className="min-w-0 flex-1" aria-labelledby={labelId}>
        <header className="flex flex-wrap items-baseline gap-x-2 gap-y-0.5">
          <span id={labelId} className="sr-only">
            Comment by {comment.author.name}
          </span>
          <span className="text-sm font-semibold text-slate-900">{comment.author.name}</span>
          <time dateTime={comment.createdAt} title={formatExact(comment.createdAt)} className="text-xs text-slate-500">
            {formatRelative(comment.createdAt, now)}
          </time>
          {comment.editedAt && !comment.isDeleted ? (
            <span className="text-xs text-slate-500" title={`Edited ${formatExact(comment.editedAt)}`}>
              (edited)
            </span>
          ) : null}
          {(canEdit || canDelete) && !isEditing ? (
            <span className="ml-auto flex items-center gap-1 self-center">
              {canEdit ? (
                <Button
                  variant="ghost"
                  size="sm"
                  className="h-7 px-2"
                  icon={<Pencil className="size-3.5" aria-hidden="true" />}
                  onClick={onEdit}
                  aria-label="Edit comment"
                  title="Edit comment"
                >
                  <span className="hidden sm:inline">Edit</span>
                </Button>
              ) : null}
              {canDelete ? (
                <Button
                  variant="ghost"
                  size="sm"
                  className="h-7 px-2 hover:text-rose-700"
                  icon={<Trash2 className="size-3.5" aria-hidden="true" />}
                  onClick={onDelete}
                  aria-label="Delete comment"
                  title="Delete comment"
                >
                  <span className="hidden sm:inline">Delete</span>
                </Button>
              ) : null}
            </span>
          ) : null}
        </header>
        <div className="mt-1">
          {comment.isDeleted ? (
            <p className="flex items-center gap-1.5 text-sm text-slate-500 italic">
              <Trash2 className="size-3.5 shrink-0" aria-hidden="true" />
              {commentTexts.deleted}
            </p>
          ) : isEditing ? (
            renderEditor()
          ) : (
            <Suspense fallback={<PlainBody body={comment.body} />}>
              <CommentMarkdown body={comment.body} mentioned={mentioned} selfId={selfId} />
            </Suspense>
          )}
        </div>
      </article>
    </li>
  );
}
