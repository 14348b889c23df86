import { describe, expect, it } from 'vitest';
import type { Bug, BugStatus } from '../../../../lib/types';
import { type Board, boardCells, boardLanes, cardId, cellId, moveAt, placeBug, settleBug } from './board-model';

/** A project with its own states: two Open ones (Backlog, Ready), In Progress, Done. */
const stateOf = (id: string) =>
  ({
    backlog: { _id: 'backlog', name: 'Backlog', category: 'Open' as const, color: '#64748b' },
    ready: { _id: 'ready', name: 'Ready', category: 'Open' as const, color: '#2563eb' },
    doing: { _id: 'doing', name: 'In Progress', category: 'In Progress' as const, color: '#0891b2' },
    done: { _id: 'done', name: 'Done', category: 'Closed' as const, color: '#65a30d' },
  })[id]!;

const bug = (id: string, state: string, rank: string, assignees: string[] = []): Bug => {
  const { color: _color, ...ref } = stateOf(state);
  return {
    _id: id,
    key: `WEB-${id}`,
    title: `Bug ${id}`,
    status: ref.category,
    state: ref,
    rank,
    labels: [],
    assignedTo: assignees.map((a) => ({ _id: a, name: a.toUpperCase() })),
  } as unknown as Bug;
};

const column = (state: string, bugs: Bug[]) => ({
  status: stateOf(state).category as BugStatus,
  state: stateOf(state),
  count: bugs.length,
  bugs,
});
const board = (): Board => ({
  project: { _id: 'p', key: 'WEB', name: 'Web' },
  columns: [
    column('backlog', [bug('1', 'backlog', 'a1'), bug('2', 'backlog', 'a2'), bug('3', 'backlog', 'a3')]),
    column('ready', []),
    column('doing', [bug('4', 'doing', 'a0', ['dana'])]),
    column('done', []),
  ],
});

const ids = (b: Board, state: string) => b.columns.find((c) => c.state._id === state)?.bugs.map((x) => x._id);
const count = (b: Board, state: string) => b.columns.find((c) => c.state._id === state)?.count;

describe('board moves', () => {
  it('moves a card to another column between its neighbours; the counts, its status and its state follow', () => {
    const next = placeBug(board(), { bugId: '2', stateId: 'doing', status: 'In Progress', after: '4' });
    expect(ids(next, 'backlog')).toEqual(['1', '3']);
    expect(ids(next, 'doing')).toEqual(['4', '2']);
    expect([count(next, 'backlog'), count(next, 'doing')]).toEqual([2, 2]);
    expect(next.columns[2]?.bugs[1]).toMatchObject({ status: 'In Progress', state: { _id: 'doing' } });
  });

  it('moves a card between two states of one category', () => {
    const next = placeBug(board(), { bugId: '1', stateId: 'ready', status: 'Open' });
    expect(ids(next, 'backlog')).toEqual(['2', '3']);
    expect(ids(next, 'ready')).toEqual(['1']);
    expect(next.columns[1]?.bugs[0]?.state._id).toBe('ready');
  });

  it('reorders within a column without touching the counts', () => {
    const next = placeBug(board(), { bugId: '3', stateId: 'backlog', status: 'Open', before: '1' });
    expect(ids(next, 'backlog')).toEqual(['3', '1', '2']);
    expect(count(next, 'backlog')).toBe(3);
  });

  it('gives the same board when the same move is made again (a refetch during the move)', () => {
    const move = { bugId: '1', stateId: 'done', status: 'Closed' as const };
    const once = placeBug(board(), move);
    expect(placeBug(once, move)).toEqual(once);
    expect(count(once, 'done')).toBe(1);
  });

  it('puts the server’s copy of a bug at its rank in its state’s column', () => {
    const next = settleBug(board(), { ...bug('1', 'backlog', 'a25') });
    expect(ids(next, 'backlog')).toEqual(['2', '1', '3']);
    const moved = settleBug(board(), { ...bug('1', 'ready', 'a25') });
    expect(ids(moved, 'ready')).toEqual(['1']);
  });

  it('reads the neighbours of a dropped card from its cell', () => {
    const cells = [cardId('all', '4'), cardId('all', '2'), cardId('all', '9')];
    expect(moveAt(cells, 1, column('doing', []))).toEqual({
      bugId: '2',
      stateId: 'doing',
      status: 'In Progress',
      before: '9',
      after: '4',
    });
    expect(moveAt([cardId('all', '2')], 0, column('done', []))).toEqual({
      bugId: '2',
      stateId: 'done',
      status: 'Closed',
    });
  });
});

describe('swimlanes', () => {
  it('makes a lane per assignee and one for the unassigned, and puts each card in its lanes', () => {
    const b = board();
    const lanes = boardLanes(b, true);
    expect(lanes.map((l) => l.id)).toEqual(['dana', 'none']);
    const cells = boardCells(b, lanes, true);
    expect(cells[cellId('doing', 'dana')]).toEqual([cardId('dana', '4')]);
    expect(cells[cellId('backlog', 'none')]).toHaveLength(3);
  });
});
