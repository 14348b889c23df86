/**
 * `?at=<ISO time>` on a bug page: the moment the page shows the bug as of. Kept tiny
 * and free of imports: route search validators run in the entry chunk.
 */
const isoInstant = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})$/;

/** The value when it names a real instant with its offset, else undefined (the page then shows now). */
export function pickInstant(value: unknown): string | undefined {
  if (typeof value !== 'string' || value.length > 40 || !isoInstant.test(value)) return undefined;
  return Number.isNaN(Date.parse(value)) ? undefined : value;
}

export type AtSearch = { at?: string };

/** The bug pages' validateSearch: keeps a well-formed `at`, drops anything else. */
export function validateAtSearch(search: Record<string, unknown>): AtSearch {
  const at = pickInstant(search.at);
  return at ? { at } : {};
}
