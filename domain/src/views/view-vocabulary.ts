/**
 * Saved views (api.md "Saved views"): a user's named bug lists. Limits, texts and the
 * rules on each field, with no schema library: the browser loads this through
 * `@bugtrail/domain/vocabulary`; `view.schemas.ts` builds the request schema from it and
 * the decider checks the same rules, so every door refuses the same things in the same words.
 */

export const viewLimits = {
  nameMax: 80,
  pathMax: 200,
  queryMax: 2000,
  /** Views one user may keep at once. */
  perUser: 100,
} as const;

export const viewMessages = {
  nameRequired: 'Please enter a name for the view',
  nameNotText: 'View name must be text',
  nameTooLong: `View name cannot exceed ${viewLimits.nameMax} characters`,
  pathRequired: 'Path is required',
  pathNotText: 'Path must be text',
  pathTooLong: `Path cannot exceed ${viewLimits.pathMax} characters`,
  pathInvalid: 'Path must be a path of this app: it starts with "/", has no scheme, no "//", no "?" or "#"',
  queryNotText: 'Query must be text',
  queryTooLong: `Query cannot exceed ${viewLimits.queryMax.toLocaleString('en-US')} characters`,
  queryInvalid: 'Query must be a URL query string: no "#", no control characters',
  duplicateName: 'A view with this name already exists',
  limitReached: `You can keep at most ${viewLimits.perUser} saved views. Delete one to save another.`,
  alreadySaved: 'This view was saved already',
  notFound: 'View not found',
  notYours: 'Saved views belong to their owner alone',
  deleted: 'View deleted',
} as const;

/**
 * A path of this app, as the router names a list (`/admin/bugs`): "/" and segments of URL
 * path characters, so it can never name another origin (`//host`, `/\host`, `https:`),
 * carry a query or a fragment, or hide a space or a control character. Written so that no
 * input backtracks (each segment is one run between slashes); the OpenAPI document
 * publishes it as the field's `pattern`.
 */
export const viewPathPattern = /^\/(?:[A-Za-z0-9._~!$&'()*+,;=:@%-]+(?:\/[A-Za-z0-9._~!$&'()*+,;=:@%-]+)*\/?)?$/;

/** The message for a path that is not a saved view's, or null when it is one. */
export function viewPathIssue(path: string): string | null {
  if (path.length === 0) return viewMessages.pathRequired;
  if (path.length > viewLimits.pathMax) return viewMessages.pathTooLong;
  if (!viewPathPattern.test(path)) return viewMessages.pathInvalid;
  return null;
}

/** The query as stored: the list's URL query string without its leading "?". */
export function normaliseViewQuery(query: string): string {
  return query.startsWith('?') ? query.slice(1) : query;
}

/** A query string as the list's URL carries it, with or without its "?": no fragment, no control character. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it refuses.
export const viewQueryPattern = /^\??[^#\u0000-\u001f\u007f]*$/;

/** The message for a (normalised) query that cannot be saved, or null. */
export function viewQueryIssue(query: string): string | null {
  if (query.length > viewLimits.queryMax) return viewMessages.queryTooLong;
  if (!viewQueryPattern.test(query)) return viewMessages.queryInvalid;
  return null;
}

/** The message for a (trimmed) name that cannot be saved, or null. */
export function viewNameIssue(name: string): string | null {
  if (name.length === 0) return viewMessages.nameRequired;
  if (name.length > viewLimits.nameMax) return viewMessages.nameTooLong;
  return null;
}

/** Two names are the same view's when they differ only in case (and surrounding spaces). */
export function isSameViewName(a: string, b: string): boolean {
  return a.trim().toLowerCase() === b.trim().toLowerCase();
}

/** A saved view as every answer shows it. `createdAt` is ISO 8601. */
export type SavedViewDto = Readonly<{ _id: string; name: string; path: string; query: string; createdAt: string }>;
