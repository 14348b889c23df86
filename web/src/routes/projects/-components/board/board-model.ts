import type { StateDto } from '@bugtrail/domain/vocabulary';
import type { Bug, BugStatus, UserRef } from '../../../../lib/types';

/**
 * A project's board (api.md "Board") as `GET /api/projects/{key}/board` answers it, and the pure
 * moves the page makes on it: at once (optimistic), again over any answer that lands while a move
 * is still being sent, and once more by rank when the server has placed the bug.
 */
/** A column per workflow state (issue 37): `status` is its state's category. */
export type BoardColumn = { status: BugStatus; state: StateDto; count: number; bugs: Bug[] };
export type Board = { project: { _id: string; key: string; name: string }; columns: BoardColumn[] };

/**
 * A bug put in the column of the state `stateId` (of the category `status`), before the bug
 * `before` and after the bug `after` (either may be absent).
 */
export type BoardMove = {
  bugId: string;
  stateId: string;
  status: BugStatus;
  before?: string | undefined;
  after?: string | undefined;
};

/** The column a bug is in: its state's, else its status's first. */
export const columnKeyOf = (board: Pick<Board, 'columns'>, bug: Bug): string =>
  board.columns.find((c) => c.state._id === bug.state?._id)?.state._id ??
  board.columns.find((c) => c.status === bug.status)?.state._id ??
  '';

export function isBoard(value: unknown): value is Board {
  return typeof value === 'object' && value !== null && Array.isArray((value as Board).columns);
}

export function findBug(board: Board, bugId: string): Bug | undefined {
  for (const column of board.columns) {
    const bug = column.bugs.find((b) => b._id === bugId);
    if (bug) return bug;
  }
  return undefined;
}

/** Where a moved bug goes among `bugs` (the bug itself already taken out). */
function dropIndex(bugs: readonly Bug[], move: BoardMove): number {
  const beforeAt = move.before ? bugs.findIndex((b) => b._id === move.before) : -1;
  if (beforeAt >= 0) return beforeAt;
  const afterAt = move.after ? bugs.findIndex((b) => b._id === move.after) : -1;
  if (afterAt >= 0) return afterAt + 1;
  return 0;
}

/** The board with `bug` taken out of its column and put in the column `to` at `index(bugs)`; counts follow. */
function relocate(board: Board, bug: Bug, to: string, index: (bugs: readonly Bug[]) => number): Board {
  const from = board.columns.find((c) => c.bugs.some((b) => b._id === bug._id))?.state._id;
  return {
    ...board,
    columns: board.columns.map((column) => {
      const key = column.state._id;
      const bugs = column.bugs.filter((b) => b._id !== bug._id);
      let count = column.count;
      if (key === from && from !== to) count = Math.max(0, count - 1);
      if (key === to) {
        if (from !== to) count += 1;
        bugs.splice(index(bugs), 0, bug);
      }
      return { ...column, count, bugs };
    }),
  };
}

/** The board after `move` (a bug the board does not show leaves it as it is). */
export function placeBug(board: Board, move: BoardMove): Board {
  const bug = findBug(board, move.bugId);
  const column = board.columns.find((c) => c.state._id === move.stateId);
  if (!bug || !column) return board;
  const moved: Bug = {
    ...bug,
    status: move.status,
    state: { _id: column.state._id, name: column.state.name, category: column.status },
  };
  return relocate(board, moved, move.stateId, (bugs) => dropIndex(bugs, move));
}

/** The board with the server's copy of a bug, in its state's column at its rank (ranks sort byte by byte). */
export function settleBug(board: Board, bug: Bug): Board {
  if (!findBug(board, bug._id)) return board;
  return relocate(board, bug, columnKeyOf(board, bug), (bugs) => {
    const at = bugs.findIndex((other) => bug.rank < other.rank);
    return at < 0 ? bugs.length : at;
  });
}

/** A row of the board: everyone's bugs, or one assignee's (swimlanes), or the unassigned ones. */
export type Lane = { id: string; title: string; user: UserRef | null };

export const ALL_LANE = 'all';
export const UNASSIGNED_LANE = 'none';

/** The lanes a bug shows in: each of its assignees' (a bug worked on by two is in both), else Unassigned. */
export function lanesOf(bug: Bug, isSwimlanes: boolean): string[] {
  if (!isSwimlanes) return [ALL_LANE];
  return bug.assignedTo.length > 0 ? bug.assignedTo.map((user) => user._id) : [UNASSIGNED_LANE];
}

/** The board's lanes: one for all, or one per assignee by name, then Unassigned (when any bug is). */
export function boardLanes(board: Board, isSwimlanes: boolean): Lane[] {
  if (!isSwimlanes) return [{ id: ALL_LANE, title: 'All bugs', user: null }];
  const people = new Map<string, UserRef>();
  let hasUnassigned = false;
  for (const column of board.columns)
    for (const bug of column.bugs) {
      if (bug.assignedTo.length === 0) hasUnassigned = true;
      for (const user of bug.assignedTo) if (!people.has(user._id)) people.set(user._id, user);
    }
  const lanes: Lane[] = [...people.values()]
    .sort((a, b) => a.name.localeCompare(b.name))
    .map((user) => ({ id: user._id, title: user.name, user }));
  if (hasUnassigned || lanes.length === 0) lanes.push({ id: UNASSIGNED_LANE, title: 'Unassigned', user: null });
  return lanes;
}

/** A drop target: one column (by its state's id) of one lane. Its id names both; a card's id names its lane and its bug. */
export const cellId = (stateId: string, lane: string) => `cell|${lane}|${stateId}`;
export const cardId = (lane: string, bugId: string) => `card|${lane}|${bugId}`;

export type Cells = Record<string, string[]>;

/** Every cell's cards in order (card ids), from the board's columns. */
export function boardCells(board: Board, lanes: readonly Lane[], isSwimlanes: boolean): Cells {
  const cells: Cells = {};
  for (const lane of lanes) for (const column of board.columns) cells[cellId(column.state._id, lane.id)] = [];
  for (const column of board.columns)
    for (const bug of column.bugs)
      for (const lane of lanesOf(bug, isSwimlanes)) cells[cellId(column.state._id, lane)]?.push(cardId(lane, bug._id));
  return cells;
}

export function parseCellId(id: string): { lane: string; stateId: string } | null {
  const [kind, lane, stateId, ...rest] = id.split('|');
  if (kind !== 'cell' || lane === undefined || !stateId || rest.length > 0) return null;
  return { lane, stateId };
}

export function parseCardId(id: string): { lane: string; bugId: string } | null {
  const [kind, lane, ...rest] = id.split('|');
  if (kind !== 'card' || lane === undefined || rest.length === 0) return null;
  return { lane, bugId: rest.join('|') };
}

/** The cell that holds a card (or is the id itself). */
export function cellOf(cells: Cells, id: string): string | undefined {
  if (id in cells) return id;
  return Object.keys(cells).find((cell) => cells[cell]?.includes(id));
}

/** The move that puts `bugId` where it stands in `cardIds` of `column`: its neighbours there. */
export function moveAt(
  cardIds: readonly string[],
  index: number,
  column: Pick<BoardColumn, 'state' | 'status'>,
): BoardMove | null {
  const card = cardIds[index];
  const bugId = card ? parseCardId(card)?.bugId : undefined;
  if (!bugId) return null;
  const after = index > 0 ? parseCardId(cardIds[index - 1] ?? '')?.bugId : undefined;
  const before = parseCardId(cardIds[index + 1] ?? '')?.bugId;
  return {
    bugId,
    stateId: column.state._id,
    status: column.status,
    ...(before ? { before } : {}),
    ...(after ? { after } : {}),
  };
}
