import type { Event, EventMetadata } from '../core/event.js';
import type { ViewDeletedData, ViewSavedData } from './view.schemas.js';
import type { SavedViewDto } from './view-vocabulary.js';

export type ViewSaved = Event<'ViewSaved', ViewSavedData>;
export type ViewDeleted = Event<'ViewDeleted', ViewDeletedData>;
export type ViewEvent = ViewSaved | ViewDeleted;
/** Events as evolve sees them: from the store they carry metadata (the time). */
export type ViewEventWithMeta = ViewEvent & { readonly metadata?: Pick<EventMetadata, 'occurredAt'> };

export type SavedView = Readonly<{ id: string; name: string; path: string; query: string; createdAt: string }>;

/** One user's saved views (`views-{userId}`), oldest first; deleted ones are gone. At most 100, so a list will do. */
export type SavedViewsState = Readonly<{ views: readonly SavedView[] }>;

export const initialSavedViewsState = (): SavedViewsState => ({ views: [] });

export function evolveSavedViews(state: SavedViewsState, event: ViewEventWithMeta): SavedViewsState {
  switch (event.type) {
    case 'ViewSaved': {
      const d = event.data;
      if (state.views.some((v) => v.id === d.viewId)) return state;
      const createdAt = event.metadata?.occurredAt ?? new Date(0).toISOString();
      return { views: [...state.views, { id: d.viewId, name: d.name, path: d.path, query: d.query, createdAt }] };
    }
    case 'ViewDeleted':
      return { views: state.views.filter((v) => v.id !== event.data.viewId) };
    default:
      return state;
  }
}

export function toSavedViewDto(view: SavedView): SavedViewDto {
  return { _id: view.id, name: view.name, path: view.path, query: view.query, createdAt: view.createdAt };
}
