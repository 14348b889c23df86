import { describe, expect, it } from 'vitest';
import type { Bug, BugStatus } from '../../../../lib/types';
import { type Board, boardCells, boardLanes, cardId, cellId, moveAt, placeBug, settleBug } from './board-model';

const bug = (id: string, status: BugStatus, rank: string, assignees: string[] = []): Bug =>
  ({
    _id: id,
    key: `WEB-${id}`,
    title: `Bug ${id}`,
    status,
    rank,
    labels: [],
    assignedTo: assignees.map((a) => ({ _id: a, name: a.toUpperCase() })),
  }) as unknown as Bug;

const board = (): Board => ({
  project: { _id: 'p', key: 'WEB', name: 'Web' },
  columns: [
    { status: 'Open', count: 3, bugs: [bug('1', 'Open', 'a1'), bug('2', 'Open', 'a2'), bug('3', 'Open', 'a3')] },
    { status: 'In Progress', count: 1, bugs: [bug('4', 'In Progress', 'a0', ['dana'])] },
    { status: 'Closed', count: 0, bugs: [] },
  ],
});

const ids = (b: Board, status: BugStatus) => b.columns.find((c) => c.status === status)?.bugs.map((x) => x._id);
const count = (b: Board, status: BugStatus) => b.columns.find((c) => c.status === status)?.count;

describe('board moves', () => {
  it('moves a card to another column between its neighbours, and the counts follow', () => {
    const next = placeBug(board(), { bugId: '2', status: 'In Progress', after: '4' });
    expect(ids(next, 'Open')).toEqual(['1', '3']);
    expect(ids(next, 'In Progress')).toEqual(['4', '2']);
    expect([count(next, 'Open'), count(next, 'In Progress')]).toEqual([2, 2]);
    expect(next.columns[1]?.bugs[1]?.status).toBe('In Progress');
  });

  it('reorders within a column without touching the counts', () => {
    const next = placeBug(board(), { bugId: '3', status: 'Open', before: '1' });
    expect(ids(next, 'Open')).toEqual(['3', '1', '2']);
    expect(count(next, 'Open')).toBe(3);
  });

  it('gives the same board when the same move is made again (a refetch during the move)', () => {
    const move = { bugId: '1', status: 'Closed' as const };
    const once = placeBug(board(), move);
    expect(placeBug(once, move)).toEqual(once);
    expect(count(once, 'Closed')).toBe(1);
  });

  it('puts the server’s copy of a bug at its rank in its column', () => {
    const next = settleBug(board(), { ...bug('1', 'Open', 'a25') });
    expect(ids(next, 'Open')).toEqual(['2', '1', '3']);
  });

  it('reads the neighbours of a dropped card from its cell', () => {
    const cells = [cardId('all', '4'), cardId('all', '2'), cardId('all', '9')];
    expect(moveAt(cells, 1, 'In Progress')).toEqual({ bugId: '2', status: 'In Progress', before: '9', after: '4' });
    expect(moveAt([cardId('all', '2')], 0, 'Closed')).toEqual({ bugId: '2', status: 'Closed' });
  });
});

describe('swimlanes', () => {
  it('makes a lane per assignee and one for the unassigned, and puts each card in its lanes', () => {
    const b = board();
    const lanes = boardLanes(b, true);
    expect(lanes.map((l) => l.id)).toEqual(['dana', 'none']);
    const cells = boardCells(b, lanes, true);
    expect(cells[cellId('In Progress', 'dana')]).toEqual([cardId('dana', '4')]);
    expect(cells[cellId('Open', 'none')]).toHaveLength(3);
  });
});
