import { useSortable } from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import { Link } from '@tanstack/react-router';
import { GripVertical, Lock } from 'lucide-react';
import { useEffect, useRef } from 'react';
import { LabelChips } from '../../../../components/labels/label-chip';
import { AvatarStack } from '../../../../components/ui/avatar';
import { Badge, PriorityBadge } from '../../../../components/ui/badge';
import { cx } from '../../../../components/ui/cx';
import { bugName, bugTitle } from '../../../../lib/format';
import { openBlockers } from '../../../../lib/planning';
import type { Bug } from '../../../../lib/types';
import { MoveMenu, type MoveOption } from './move-menu';

/**
 * What a card shows: key, title (a link to the bug's page), priority, labels and the assignees'
 * faces. Also drawn under the pointer while it is dragged (DragOverlay), without the controls.
 */
export function CardBody({
  bug,
  controls,
  isLink = true,
}: {
  bug: Bug;
  controls?: React.ReactNode;
  /** False for the copy under the pointer: one link per bug on the page. */
  isLink?: boolean;
}) {
  const name = bugName(bug);
  return (
    <>
      <div className="flex items-center gap-2">
        <span className="font-mono text-xs font-medium text-slate-500">{name}</span>
        <PriorityBadge priority={bug.priority} />
        {openBlockers(bug).length > 0 ? (
          <Badge tone="amber" className="gap-1">
            <Lock className="size-3" aria-hidden="true" />
            Blocked
          </Badge>
        ) : null}
        <span className="ml-auto flex items-center gap-0.5">{controls}</span>
      </div>
      <h3 className="mt-1.5 text-sm font-medium wrap-anywhere text-slate-900">
        {isLink ? (
          <Link
            to="/bugs/$number"
            params={{ number: bug.key ?? String(bug.number ?? bug._id) }}
            draggable={false}
            className="hover:text-brand-700 hover:underline"
          >
            {bugTitle(bug)}
          </Link>
        ) : (
          bugTitle(bug)
        )}
      </h3>
      {bug.labels?.length || bug.assignedTo.length ? (
        <div className="mt-2 flex items-end justify-between gap-2">
          <LabelChips labels={bug.labels} max={3} />
          {bug.assignedTo.length > 0 ? (
            <span className="ml-auto shrink-0">
              <AvatarStack users={bug.assignedTo} size="xs" />
            </span>
          ) : null}
        </div>
      ) : null}
    </>
  );
}

export const cardClass =
  'rounded-lg border border-slate-200 bg-white p-3 shadow-xs touch-manipulation select-none has-focus-visible:ring-2 has-focus-visible:ring-brand-500';

/**
 * A card on the board. The mouse (or a finger) drags it from anywhere on it; the keyboard picks
 * it up with its grip (Space, arrows, Space: dnd-kit's own way) or moves it with its Move menu.
 */
export function BoardCard({
  id,
  bug,
  canMove,
  moves,
  shouldFocus,
  onFocused,
}: {
  /** The card's sortable id (its lane and its bug). */
  id: string;
  bug: Bug;
  canMove: boolean;
  moves: MoveOption[];
  /** Just moved by its menu: its Move button takes the focus back. */
  shouldFocus: boolean;
  onFocused: () => void;
}) {
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } = useSortable({
    id,
    disabled: !canMove,
    data: { bugId: bug._id },
  });
  const moveButton = useRef<HTMLButtonElement | null>(null);
  useEffect(() => {
    if (!shouldFocus) return;
    moveButton.current?.focus();
    onFocused();
  }, [shouldFocus, onFocused]);
  const name = bugName(bug) || bugTitle(bug);
  // The mouse and a finger start a drag anywhere on the card; the keyboard only from the grip.
  const { onKeyDown, ...pointerListeners } = listeners ?? {};
  return (
    <li
      ref={setNodeRef}
      data-bug-card={bug.key ?? bug._id}
      {...(canMove ? pointerListeners : {})}
      className={cx(cardClass, canMove && 'cursor-grab', isDragging && 'opacity-40')}
      style={{ transform: CSS.Translate.toString(transform), transition }}
    >
      <CardBody
        bug={bug}
        controls={
          canMove ? (
            <>
              <button
                ref={setActivatorNodeRef}
                type="button"
                {...attributes}
                onKeyDown={onKeyDown as React.KeyboardEventHandler<HTMLButtonElement> | undefined}
                aria-label={`Drag ${name}`}
                className="rounded-md p-1 text-slate-500 hover:bg-slate-100 hover:text-slate-900"
              >
                <GripVertical className="size-4" aria-hidden="true" />
              </button>
              <MoveMenu
                name={name}
                options={moves}
                buttonRef={(node) => {
                  moveButton.current = node;
                }}
              />
            </>
          ) : null
        }
      />
    </li>
  );
}
