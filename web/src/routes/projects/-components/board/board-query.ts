import { keepPreviousData, type QueryClient, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { listQueryString } from '../../../../components/bug-list/list-search';
import { api } from '../../../../lib/api';
import { queryKeys } from '../../../../lib/query-keys';
import { notifyStatusRefusal } from '../../../../lib/status-refusal';
import type { Bug, User } from '../../../../lib/types';
import { type Board, type BoardMove, isBoard, placeBug, settleBug } from './board-model';

/** Cards per column: the first ones in rank order; the column's count says how many there are in all. */
export const BOARD_LIMIT = 50;

/**
 * A project's board with the list's filters (api.md "Board"). Its key starts with `bugs`, so the
 * live stream refreshes it on every bug change: other viewers see a move at once.
 */
export const boardQuery = (projectKey: string, params: Record<string, string>) =>
  queryOptions({
    queryKey: queryKeys.bugs.board(projectKey, params),
    queryFn: ({ signal }) => {
      const query = listQueryString({ ...params, limit: String(BOARD_LIMIT) });
      return api<Board>(`/api/projects/${encodeURIComponent(projectKey)}/board?${query}`, { signal });
    },
    placeholderData: keepPreviousData,
  });

/** The key of every board move, so the page can lay the ones still being sent over a fresher answer. */
export const boardMoveKey = ['board-move'] as const;

/** `override`: an admin's "Close anyway" after a close refused for open blockers. */
export type MoveRequest = {
  move: BoardMove;
  /** The state the bug was in (its column). */
  from: string;
  saved: [readonly unknown[], unknown][];
  override?: boolean;
};

/**
 * Shows a move on every cached board at once, before anything is sent: a fetch under way is
 * cancelled first (it would bring the old order back). Answers what to put back if it is refused.
 */
export function showMove(client: QueryClient, move: BoardMove): MoveRequest['saved'] {
  void client.cancelQueries({ queryKey: queryKeys.bugs.boards });
  const saved = client.getQueriesData({ queryKey: queryKeys.bugs.boards });
  client.setQueriesData<Board>({ queryKey: queryKeys.bugs.boards }, (board) =>
    isBoard(board) ? placeBug(board, move) : board,
  );
  return saved;
}

/**
 * Sends a move the board already shows (showMove): the state when the column changes, then the
 * place among its neighbours. A refusal puts the cards back and says the server's words; a close
 * refused because open bugs block the card offers an admin "Close anyway".
 */
export function useMoveBug() {
  const client = useQueryClient();
  const mutation = useMutation({
    mutationKey: boardMoveKey,
    // One after the other: a move's neighbours are the board as the moves before it left it.
    scope: { id: 'board-moves' },
    mutationFn: async ({ move, from, override }: MoveRequest) => {
      const at = `/api/bugs/${encodeURIComponent(move.bugId)}`;
      let bug: Bug | undefined;
      if (move.stateId !== from) {
        const answer = await api<{ bug?: Bug }>(`${at}/state`, {
          method: 'PUT',
          body: override ? { stateId: move.stateId, override: true } : { stateId: move.stateId },
          offline: 'fail',
        });
        bug = answer?.bug;
      }
      if (move.before || move.after) {
        const answer = await api<{ bug?: Bug }>(`${at}/rank`, {
          method: 'PUT',
          body: { ...(move.before ? { before: move.before } : {}), ...(move.after ? { after: move.after } : {}) },
          offline: 'fail',
        });
        bug = answer?.bug ?? bug;
      }
      return bug;
    },
    onError: (error, request) => {
      for (const [key, data] of request.saved) client.setQueryData(key, data);
      notifyStatusRefusal(error, {
        fallback: 'Could not move the bug',
        isAdmin: client.getQueryData<User>(queryKeys.profile.self)?.role === 'admin',
        onOverride: () => mutation.mutate({ ...request, saved: showMove(client, request.move), override: true }),
      });
    },
    onSuccess: (bug) => {
      if (!bug) return;
      client.setQueriesData<Board>({ queryKey: queryKeys.bugs.boards }, (board) =>
        isBoard(board) ? settleBug(board, bug) : board,
      );
      client.setQueryData(queryKeys.bug.detail(bug._id), bug);
    },
    onSettled: (_bug, _error, { move }) => {
      void client.invalidateQueries({ queryKey: queryKeys.bugs.all });
      void client.invalidateQueries({ queryKey: queryKeys.bug.detail(move.bugId) });
      void client.invalidateQueries({ queryKey: queryKeys.dashboard.all });
    },
  });
  return mutation;
}
