import { ConflictError, ForbiddenError, NotFoundError, ValidationError } from '../core/errors.js';
import { type Actor, assertNever, type Command, type Decider } from '../core/event.js';
import { rolePermissions } from '../users/permissions.js';
import { userMessages } from '../users/user-vocabulary.js';
import { evolveSavedViews, initialSavedViewsState, type SavedViewsState, type ViewEvent } from './view.js';
import {
  isSameViewName,
  normaliseViewQuery,
  viewLimits,
  viewMessages,
  viewNameIssue,
  viewPathIssue,
  viewQueryIssue,
} from './view-vocabulary.js';

/** Save a named bug list in the owner's stream. `viewId` is new (write-api makes it). */
export type SaveView = Command<
  'SaveView',
  { userId: string; viewId: string; name: string; path: string; query: string }
>;
export type DeleteView = Command<'DeleteView', { userId: string; viewId: string }>;
export type ViewCommand = SaveView | DeleteView;

/**
 * Only the owner acts on their views, and auditors change nothing (ADR 012: their own
 * profile, session and two-factor settings excepted), so a reactor or a new door cannot
 * skip what write-api's door refuses.
 */
function assertOwner(actor: Actor | null, userId: string): void {
  if (!actor || actor.id !== userId) throw new ForbiddenError(viewMessages.notYours);
  if (rolePermissions.isReadOnly(actor)) throw new ForbiddenError(userMessages.readOnlyRole);
}

function saveView(command: SaveView, state: SavedViewsState): ViewEvent[] {
  const d = command.data;
  assertOwner(command.metadata.actor, d.userId);
  const name = d.name.trim();
  const query = normaliseViewQuery(d.query);
  const issues = [
    { field: 'name', message: viewNameIssue(name) },
    { field: 'path', message: viewPathIssue(d.path) },
    { field: 'query', message: viewQueryIssue(query) },
  ].filter((issue): issue is { field: string; message: string } => issue.message !== null);
  if (issues.length > 0) throw new ValidationError(issues[0]!.message, issues);
  // A retried save (its id derives from the Idempotency-Key): the handler answers it as the first time.
  if (state.views.some((v) => v.id === d.viewId)) throw new ConflictError(viewMessages.alreadySaved);
  if (state.views.some((v) => isSameViewName(v.name, name))) throw new ConflictError(viewMessages.duplicateName);
  if (state.views.length >= viewLimits.perUser) throw new ConflictError(viewMessages.limitReached);
  return [{ type: 'ViewSaved', data: { viewId: d.viewId, userId: d.userId, name, path: d.path, query } }];
}

function deleteView(command: DeleteView, state: SavedViewsState): ViewEvent[] {
  const d = command.data;
  assertOwner(command.metadata.actor, d.userId);
  if (!state.views.some((v) => v.id === d.viewId)) throw new NotFoundError(viewMessages.notFound);
  return [{ type: 'ViewDeleted', data: { viewId: d.viewId, userId: d.userId } }];
}

export function decideSavedViews(command: ViewCommand, state: SavedViewsState): ViewEvent[] {
  switch (command.type) {
    case 'SaveView':
      return saveView(command, state);
    case 'DeleteView':
      return deleteView(command, state);
    default:
      return assertNever(command);
  }
}

export const savedViewsDecider: Decider<SavedViewsState, ViewCommand, ViewEvent> = {
  initialState: initialSavedViewsState,
  evolve: evolveSavedViews,
  decide: decideSavedViews,
};
