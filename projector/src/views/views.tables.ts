import type { ColumnType } from 'kysely';

/**
 * Saved views (api.md "Saved views"): one row per live view, keyed by its owner. Deleted
 * views are deleted rows. `position` is the `ViewSaved` event's store position: the order
 * the owner saved them in, the same after every rebuild.
 */
export interface SavedViewsTable {
  user_id: string;
  id: string;
  name: string;
  path: string;
  query: string;
  created_at: ColumnType<Date, Date | string, Date | string>;
  position: string;
}
