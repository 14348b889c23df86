import { type TriageSuggestions, triageLimits } from '@bugtrail/domain/vocabulary';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../lib/api';
import { queryKeys } from '../../lib/query-keys';
import { useDebounced } from '../../lib/use-debounced';

/** How long the form waits after the last keystroke before it asks. */
export const TRIAGE_DEBOUNCE_MS = 300;
/** The description's start is enough: the server weighs its first words only. */
const DESCRIPTION_SENT = 2000;

/**
 * POST /api/bugs/suggestions: a question (read-api answers it, nothing changes), so it is
 * never queued offline; an answer is reused for the same text for a minute.
 */
export const triageQuery = (title: string, description: string) =>
  queryOptions({
    queryKey: queryKeys.triage.suggestions(title, description),
    queryFn: ({ signal }) =>
      api<TriageSuggestions>('/api/bugs/suggestions', {
        method: 'POST',
        body: { title, description },
        offline: 'fail',
        signal,
      }),
    staleTime: 60_000,
    retry: false,
  });

/**
 * The suggestions for what the reporter is typing: asked ~300 ms after they stop, once the
 * title has 3 characters; the last answer stays on screen while the next is on its way.
 */
export function useTriageSuggestions(title: string, description: string) {
  const debouncedTitle = useDebounced(title.trim(), TRIAGE_DEBOUNCE_MS);
  const debouncedDescription = useDebounced(description.trim().slice(0, DESCRIPTION_SENT), TRIAGE_DEBOUNCE_MS);
  const isEnabled = debouncedTitle.length >= triageLimits.titleMinChars;
  const query = useQuery({
    ...triageQuery(debouncedTitle, debouncedDescription),
    enabled: isEnabled,
    placeholderData: keepPreviousData,
  });
  return {
    isEnabled,
    suggestions: isEnabled ? query.data : undefined,
    isLoading: isEnabled && query.isPending,
    isError: isEnabled && query.isError,
  };
}
