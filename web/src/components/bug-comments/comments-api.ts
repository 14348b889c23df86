import { type QueryClient, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api, isQueuedOffline } from '../../lib/api';
import { queryKeys } from '../../lib/query-keys';
import type { Bug } from '../../lib/types';

/**
 * The discussion under a bug (api.md "People", Comments). The key sits under queryKeys.bug.detail(id)
 * like the bug's history: the live topic `bug:<id>`, which the server emits when a
 * comment is added, edited or deleted, invalidates that prefix (ADR 004, live/topic-keys.ts),
 * so an open bug page shows others' comments without a reload.
 */

export type BugComment = {
  _id: string;
  author: { _id: string; name: string };
  /** Markdown; empty once deleted. */
  body: string;
  /** Ids of the people mentioned, as the autocomplete picked them. */
  mentions: string[];
  createdAt: string;
  editedAt: string | null;
  isDeleted: boolean;
};

/** The server's limit, after trimming. */
export const COMMENT_MAX_LENGTH = 10_000;

export const commentTexts = {
  empty: 'Comment cannot be empty',
  tooLong: `Comment cannot exceed ${COMMENT_MAX_LENGTH} characters`,
  deleted: 'Comment deleted',
  addFailed: 'The comment could not be posted',
  editFailed: 'The comment could not be saved',
  deleteFailed: 'The comment could not be deleted',
} as const;

/** The problem with a body before it is sent, if any (the server checks the same). */
export function checkCommentBody(body: string): string | null {
  const trimmed = body.trim();
  if (!trimmed) return commentTexts.empty;
  if (trimmed.length > COMMENT_MAX_LENGTH) return commentTexts.tooLong;
  return null;
}

const commentsPath = (bugId: string, commentId?: string) =>
  `/api/bugs/${encodeURIComponent(bugId)}/comments${commentId ? `/${encodeURIComponent(commentId)}` : ''}`;

export const bugCommentsQuery = (bugId: string) =>
  queryOptions({
    queryKey: queryKeys.bug.comments(bugId),
    queryFn: async ({ signal }) => (await api<{ comments: BugComment[] }>(commentsPath(bugId), { signal })).comments,
    retry: false,
  });

export type CommentDraft = { body: string; mentions: string[] };

function patchComments(client: QueryClient, bugId: string, patch: (comments: BugComment[]) => BugComment[]) {
  client.setQueryData<BugComment[]>(queryKeys.bug.comments(bugId), (comments) =>
    comments ? patch(comments) : comments,
  );
}

/** The comments and the history (comments are events of the bug's stream) read again. */
function refresh(client: QueryClient, bugId: string) {
  void client.invalidateQueries({ queryKey: queryKeys.bug.comments(bugId) });
  void client.invalidateQueries({ queryKey: queryKeys.bug.history(bugId) });
}

/** "“Title”" for the offline queue's list of waiting commands. */
function bugName(client: QueryClient, bugId: string): string {
  const title = client.getQueryData<Bug>(queryKeys.bug.detail(bugId))?.title;
  return title ? `“${title}”` : 'a bug';
}

/*
 * Without the server, a comment command waits in the offline queue like the bug's own
 * commands (api.ts); the hooks then treat it as done for now and refetch nothing.
 */

export function useAddComment(bugId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (draft: CommentDraft) =>
      api<{ comment: BugComment }>(commentsPath(bugId), {
        method: 'POST',
        body: draft,
        offlineLabel: `Comment on ${bugName(client, bugId)}`,
      }),
    onSuccess: (answer) => {
      if (isQueuedOffline(answer)) return;
      const added = answer?.comment;
      if (added)
        patchComments(client, bugId, (comments) =>
          comments.some((c) => c._id === added._id) ? comments : [...comments, added],
        );
      refresh(client, bugId);
    },
  });
}

export function useEditComment(bugId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ commentId, draft }: { commentId: string; draft: CommentDraft }) =>
      api<{ comment: BugComment }>(commentsPath(bugId, commentId), {
        method: 'PUT',
        body: draft,
        offlineLabel: `Edit of a comment on ${bugName(client, bugId)}`,
      }),
    onSuccess: (answer) => {
      if (isQueuedOffline(answer)) return;
      const edited = answer?.comment;
      if (edited) patchComments(client, bugId, (comments) => comments.map((c) => (c._id === edited._id ? edited : c)));
      refresh(client, bugId);
    },
  });
}

export function useDeleteComment(bugId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (commentId: string) =>
      api<undefined>(commentsPath(bugId, commentId), {
        method: 'DELETE',
        offlineLabel: `Deletion of a comment on ${bugName(client, bugId)}`,
      }),
    onSuccess: (answer, commentId) => {
      if (isQueuedOffline(answer)) return;
      patchComments(client, bugId, (comments) =>
        comments.map((c) => (c._id === commentId ? { ...c, body: '', mentions: [], isDeleted: true } : c)),
      );
      refresh(client, bugId);
    },
  });
}
