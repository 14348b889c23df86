import {
  type Announcements,
  type CollisionDetection,
  closestCorners,
  DndContext,
  type DragEndEvent,
  type DragOverEvent,
  DragOverlay,
  type DragStartEvent,
  KeyboardSensor,
  MouseSensor,
  pointerWithin,
  TouchSensor,
  type UniqueIdentifier,
  useDroppable,
  useSensor,
  useSensors,
} from '@dnd-kit/core';
import {
  arrayMove,
  SortableContext,
  sortableKeyboardCoordinates,
  verticalListSortingStrategy,
} from '@dnd-kit/sortable';
import { useMutationState, useQueryClient } from '@tanstack/react-query';
import { Fragment, useCallback, useMemo, useRef, useState } from 'react';
import { Avatar } from '../../../../components/ui/avatar';
import { cx } from '../../../../components/ui/cx';
import { bugName, bugTitle, formatNumber, statusLabel } from '../../../../lib/format';
import type { Bug, BugStatus, Role } from '../../../../lib/types';
import { BoardCard, CardBody, cardClass } from './board-card';
import {
  type Board,
  type BoardColumn,
  type BoardMove,
  boardCells,
  boardLanes,
  type Cells,
  cellId,
  cellOf,
  columnKeyOf,
  type Lane,
  moveAt,
  parseCardId,
  parseCellId,
  placeBug,
} from './board-model';
import { boardMoveKey, type MoveRequest, showMove, useMoveBug } from './board-query';
import type { MoveOption } from './move-menu';

const laneOfId = (id: UniqueIdentifier) => parseCardId(String(id))?.lane ?? parseCellId(String(id))?.lane;

/**
 * The board itself (api.md "Board"): a column per workflow state, in lanes per assignee when asked, each
 * column's cards in rank order. Cards move by drag and drop (mouse, touch, or dnd-kit's keyboard
 * way) and by their Move menu; every move shows at once and goes back if the server refuses it.
 */
export function BoardView({
  board,
  isSwimlanes,
  canMove,
  viewAs,
}: {
  board: Board;
  isSwimlanes: boolean;
  canMove: boolean;
  /** Whose words the statuses are in (admins and developers say Pending and Resolved). */
  viewAs: Role;
}) {
  const client = useQueryClient();
  const said = (status: BugStatus) => statusLabel(status, viewAs);
  /** A column's name: a state of the project's own by its name; one named as its category in the viewer's words. */
  const columnName = (column: BoardColumn) =>
    column.state.name === column.status ? said(column.status) : column.state.name;
  const move = useMoveBug();
  // Moves still being sent, laid over any answer that lands meanwhile (the live stream refetches
  // as soon as the status is changed, before the bug has its place).
  const pending = useMutationState({
    filters: { mutationKey: boardMoveKey, status: 'pending' },
    select: (mutation) => (mutation.state.variables as MoveRequest | undefined)?.move,
  });
  const shown = useMemo(() => pending.reduce((b: Board, m) => (m ? placeBug(b, m) : b), board), [board, pending]);
  const lanes = useMemo(() => boardLanes(shown, isSwimlanes), [shown, isSwimlanes]);
  const baseCells = useMemo(() => boardCells(shown, lanes, isSwimlanes), [shown, lanes, isSwimlanes]);
  const bugs = useMemo(
    () => new Map(shown.columns.flatMap((column) => column.bugs.map((bug) => [bug._id, bug] as const))),
    [shown],
  );
  const [dragCells, setDragCells] = useState<Cells | null>(null);
  const dragRef = useRef<{ cells: Cells; from: string } | null>(null);
  const [activeId, setActiveId] = useState<string | null>(null);
  const [announcement, setAnnouncement] = useState('');
  const [focusBug, setFocusBug] = useState<string | null>(null);
  const cells = dragCells ?? baseCells;

  const sensors = useSensors(
    useSensor(MouseSensor, { activationConstraint: { distance: 5 } }),
    useSensor(TouchSensor, { activationConstraint: { delay: 200, tolerance: 6 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );

  const bugOf = useCallback((id: UniqueIdentifier) => bugs.get(parseCardId(String(id))?.bugId ?? ''), [bugs]);
  const nameOf = (id: UniqueIdentifier) => {
    const bug = bugOf(id);
    return bug ? bugName(bug) || bugTitle(bug) : 'The card';
  };

  const columnOf = (stateId: string) => shown.columns.find((c) => c.state._id === stateId);
  const commit = (next: BoardMove, bug: Bug, said: string) => {
    const from = columnKeyOf(shown, bug);
    const saved = showMove(client, next);
    move.mutate({ move: next, from, saved }, { onSuccess: () => setAnnouncement(said) });
  };

  /** A card stays in its lane: a drop may change its column and its place, not its assignees. */
  const collisions: CollisionDetection = useCallback((args) => {
    const lane = laneOfId(args.active.id);
    const targets = args.droppableContainers.filter((c) => laneOfId(c.id) === lane);
    const within = pointerWithin({ ...args, droppableContainers: targets });
    const first = within[0];
    if (first && parseCellId(String(first.id))) {
      // Over a cell: over its nearest card, if it has any.
      const cards = targets.filter((c) => dragRef.current?.cells[String(first.id)]?.includes(String(c.id)));
      if (cards.length > 0) return closestCorners({ ...args, droppableContainers: cards });
    }
    if (within.length > 0) return within;
    return closestCorners({ ...args, droppableContainers: targets });
  }, []);

  const onDragStart = ({ active }: DragStartEvent) => {
    const from = cellOf(baseCells, String(active.id));
    if (!from) return;
    dragRef.current = { cells: baseCells, from };
    setDragCells(baseCells);
    setActiveId(String(active.id));
  };

  const onDragOver = ({ active, over }: DragOverEvent) => {
    const drag = dragRef.current;
    if (!drag || !over) return;
    const id = String(active.id);
    const from = cellOf(drag.cells, id);
    const to = cellOf(drag.cells, String(over.id));
    if (!from || !to || from === to || laneOfId(from) !== laneOfId(to)) return;
    const target = (drag.cells[to] ?? []).filter((x) => x !== id);
    let index = target.indexOf(String(over.id));
    if (index < 0) index = target.length;
    else {
      const dragged = active.rect.current.translated;
      if (dragged && dragged.top > over.rect.top + over.rect.height / 2) index += 1;
    }
    target.splice(index, 0, id);
    const next = { ...drag.cells, [from]: (drag.cells[from] ?? []).filter((x) => x !== id), [to]: target };
    dragRef.current = { ...drag, cells: next };
    setDragCells(next);
  };

  const endDrag = () => {
    dragRef.current = null;
    setActiveId(null);
    // After the optimistic answer has reached the page (queued before this), so the card never jumps back.
    setTimeout(() => setDragCells(null), 0);
  };

  const onDragEnd = ({ active, over }: DragEndEvent) => {
    const drag = dragRef.current;
    const id = String(active.id);
    const bug = bugOf(id);
    if (!drag || !over || !bug) return endDrag();
    const to = cellOf(drag.cells, id);
    const target = to ? parseCellId(to) : null;
    if (!to || !target) return endDrag();
    let items = drag.cells[to] ?? [];
    if (cellOf(drag.cells, String(over.id)) === to && parseCardId(String(over.id)) && over.id !== id)
      items = arrayMove(items, items.indexOf(id), items.indexOf(String(over.id)));
    const column = columnOf(target.stateId);
    const isSame = to === drag.from && items.join() === (baseCells[to] ?? []).join();
    const next = isSame || !column ? null : moveAt(items, items.indexOf(id), column);
    setDragCells({ ...drag.cells, [to]: items });
    if (next && column)
      commit(next, bug, `${bugName(bug)} moved to ${columnName(column)}, position ${items.indexOf(id) + 1}`);
    endDrag();
  };

  /** The Move menu of the card `id` in `cell`: the other columns (to their top), then up and down. */
  const movesFor = (id: string, cell: string, bug: Bug): MoveOption[] => {
    const here = parseCellId(cell);
    const current = here ? columnOf(here.stateId) : undefined;
    if (!here || !current) return [];
    const items = cells[cell] ?? [];
    const at = items.indexOf(id);
    const name = bugName(bug) || bugTitle(bug);
    const run = (next: BoardMove | null, said: string) => () => {
      if (!next) return;
      commit(next, bug, said);
      setFocusBug(bug._id);
    };
    const options: MoveOption[] = shown.columns
      .filter((column) => column.state._id !== here.stateId)
      .map((column) => ({
        label: `Move to ${columnName(column)}`,
        run: run(
          moveAt([id, ...(cells[cellId(column.state._id, here.lane)] ?? [])], 0, column),
          `${name} moved to ${columnName(column)}`,
        ),
      }));
    if (at > 0)
      options.push({
        label: 'Move up',
        run: run(moveAt(arrayMove(items, at, at - 1), at - 1, current), `${name} moved up, position ${at}`),
      });
    if (at >= 0 && at < items.length - 1)
      options.push({
        label: 'Move down',
        run: run(moveAt(arrayMove(items, at, at + 1), at + 1, current), `${name} moved down, position ${at + 2}`),
      });
    return options;
  };

  const describe = (id: UniqueIdentifier): string => {
    const cell = cellOf(dragRef.current?.cells ?? cells, String(id));
    const where = cell ? parseCellId(cell) : null;
    if (!cell || !where) return 'no column';
    const items = (dragRef.current?.cells ?? cells)[cell] ?? [];
    const lane = isSwimlanes ? `, ${lanes.find((l) => l.id === where.lane)?.title ?? ''}` : '';
    const at = items.indexOf(String(id));
    const shownColumn = columnOf(where.stateId);
    const column = shownColumn ? columnName(shownColumn) : 'no column';
    return at >= 0 ? `${column}${lane}, position ${at + 1} of ${items.length}` : `${column}${lane}`;
  };
  const announcements: Announcements = {
    onDragStart: ({ active }) => `Picked up ${nameOf(active.id)}, in ${describe(active.id)}.`,
    // Over a card: it would take that card's place; over a cell: it joins the cell.
    onDragOver: ({ active, over }) =>
      over ? `${nameOf(active.id)} is over ${describe(over.id === active.id ? active.id : over.id)}.` : '',
    onDragEnd: ({ active, over }) => (over ? `${nameOf(active.id)} dropped.` : `${nameOf(active.id)} put back.`),
    onDragCancel: ({ active }) => `Moving ${nameOf(active.id)} cancelled: it is back in its place.`,
  };

  const activeBug = activeId ? bugOf(activeId) : undefined;
  return (
    <DndContext
      sensors={sensors}
      collisionDetection={collisions}
      onDragStart={onDragStart}
      onDragOver={onDragOver}
      onDragEnd={onDragEnd}
      onDragCancel={endDrag}
      accessibility={{ announcements }}
    >
      {/* Positioned: what is placed absolutely inside (screen-reader text) scrolls with it, not the page. */}
      <div className="relative -mx-1 snap-x overflow-x-auto scroll-px-1 px-1 pb-3" data-board>
        <div
          className="grid gap-3"
          style={{ gridTemplateColumns: `repeat(${shown.columns.length}, minmax(15rem, 1fr))` }}
        >
          {shown.columns.map((column) => (
            <ColumnHeading
              key={column.state._id}
              name={columnName(column)}
              color={column.state.name === column.status ? undefined : column.state.color}
              count={column.count}
              shown={column.bugs.length}
            />
          ))}
          {lanes.map((lane) => (
            <Fragment key={lane.id}>
              {isSwimlanes ? <LaneHeading lane={lane} cells={cells} columns={shown.columns} /> : null}
              {shown.columns.map((column) => {
                const id = cellId(column.state._id, lane.id);
                return (
                  <BoardCell
                    key={id}
                    id={id}
                    label={isSwimlanes ? `${columnName(column)}, ${lane.title}` : columnName(column)}
                    items={cells[id] ?? []}
                    isTarget={Boolean(activeId) && cellOf(cells, activeId ?? '') === id}
                  >
                    {(cells[id] ?? []).map((card) => {
                      const bug = bugOf(card);
                      if (!bug) return null;
                      return (
                        <BoardCard
                          key={card}
                          id={card}
                          bug={bug}
                          canMove={canMove}
                          moves={canMove ? movesFor(card, id, bug) : []}
                          shouldFocus={focusBug === bug._id && parseCardId(card)?.lane === lane.id}
                          onFocused={() => setFocusBug(null)}
                        />
                      );
                    })}
                  </BoardCell>
                );
              })}
            </Fragment>
          ))}
        </div>
      </div>
      <DragOverlay>
        {activeBug ? (
          <div className={cx(cardClass, 'cursor-grabbing shadow-lg ring-2 ring-brand-400')}>
            <CardBody bug={activeBug} isLink={false} />
          </div>
        ) : null}
      </DragOverlay>
      <p className="sr-only" aria-live="polite">
        {announcement}
      </p>
    </DndContext>
  );
}

function ColumnHeading({
  name,
  color,
  count,
  shown,
}: {
  name: string;
  /** A project's own state's colour, as a dot before its name. */
  color?: string | undefined;
  count: number;
  shown: number;
}) {
  return (
    <div className="flex min-w-0 snap-start flex-col gap-0.5 px-1">
      <h2 className="flex items-center gap-2 text-sm font-semibold text-slate-900">
        {color ? (
          <span className="size-2.5 shrink-0 rounded-full" style={{ backgroundColor: color }} aria-hidden="true" />
        ) : null}
        {name}
        <span className="rounded-full bg-slate-200 px-2 py-px text-xs font-medium text-slate-700">
          <span className="sr-only">, </span>
          {formatNumber(count)}
          <span className="sr-only"> {count === 1 ? 'bug' : 'bugs'}</span>
        </span>
      </h2>
      {shown < count ? (
        <p className="text-xs text-slate-500">The first {formatNumber(shown)} shown: filter to see the others.</p>
      ) : null}
    </div>
  );
}

function LaneHeading({ lane, cells, columns }: { lane: Lane; cells: Cells; columns: readonly BoardColumn[] }) {
  const count = columns.reduce((n, column) => n + (cells[cellId(column.state._id, lane.id)]?.length ?? 0), 0);
  return (
    <div className="mt-2 border-t border-slate-200 pt-3" style={{ gridColumn: '1 / -1' }}>
      <h2 className="sticky left-0 flex w-fit items-center gap-2 px-1 text-sm font-semibold text-slate-800">
        {lane.user ? <Avatar user={lane.user} size="xs" /> : null}
        {lane.title}
        <span className="text-xs font-normal text-slate-500">
          ({count} {count === 1 ? 'bug' : 'bugs'})
        </span>
      </h2>
    </div>
  );
}

function BoardCell({
  id,
  label,
  items,
  isTarget,
  children,
}: {
  id: string;
  label: string;
  items: string[];
  isTarget: boolean;
  children: React.ReactNode;
}) {
  const { setNodeRef } = useDroppable({ id });
  return (
    <div
      ref={setNodeRef}
      className={cx(
        'min-h-28 min-w-0 rounded-xl bg-slate-100 p-2 transition-colors',
        isTarget && 'bg-brand-50 ring-2 ring-brand-300',
      )}
    >
      <SortableContext id={id} items={items} strategy={verticalListSortingStrategy}>
        <ul aria-label={label} className="flex flex-col gap-2">
          {children}
        </ul>
      </SortableContext>
      {items.length === 0 ? <p className="px-2 py-6 text-center text-xs text-slate-600">No bugs</p> : null}
    </div>
  );
}
