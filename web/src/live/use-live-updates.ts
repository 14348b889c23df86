import { type QueryClient, type QueryKey, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { type LiveEvent, runLiveConnection } from './live-connection';
import { setLiveStatus } from './live-status';
import { queryKeysForTopic } from './topic-keys';

const TOKEN_KEY = 'token';

function readToken(): string | null {
  try {
    return localStorage.getItem(TOKEN_KEY);
  } catch {
    return null;
  }
}

const listeners = new Set<(event: LiveEvent) => void>();

/**
 * Hears every event of the app's live stream while it is open, for what is not a query to
 * refresh (the AI assistant's drafts). Answers the unsubscribe.
 */
export function subscribeLiveEvents(listener: (event: LiveEvent) => void): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

function tellListeners(event: LiveEvent) {
  for (const listener of listeners) {
    try {
      listener(event);
    } catch (error) {
      // One listener's bug must not stop the stream or the others.
      console.error(error);
    }
  }
}

/**
 * Turns live events into query invalidations. A burst (a replay after reconnecting,
 * a busy minute) is gathered for a moment so each key refetches once.
 */
export function createInvalidator(queryClient: QueryClient, gatherMs = 50) {
  const pending = new Map<string, QueryKey>();
  let isEverything = false;
  let timer: ReturnType<typeof setTimeout> | null = null;
  const flush = () => {
    timer = null;
    if (isEverything) {
      isEverything = false;
      pending.clear();
      void queryClient.invalidateQueries();
      return;
    }
    const keys = [...pending.values()];
    pending.clear();
    for (const queryKey of keys) void queryClient.invalidateQueries({ queryKey });
  };
  return {
    handle(event: LiveEvent) {
      if (event.event === 'reset') isEverything = true;
      else
        for (const topic of event.topics)
          for (const key of queryKeysForTopic(topic)) pending.set(JSON.stringify(key), key);
      if ((isEverything || pending.size > 0) && !timer) timer = setTimeout(flush, gatherMs);
    },
    dispose() {
      if (timer) clearTimeout(timer);
    },
  };
}

/**
 * Keeps the app's queries fresh from the live stream while mounted (mount it once,
 * inside the QueryClientProvider). Reads the session token from localStorage.
 */
export function useLiveUpdates(options: { url?: string } = {}): void {
  const queryClient = useQueryClient();
  const { url } = options;
  useEffect(() => {
    const controller = new AbortController();
    const invalidator = createInvalidator(queryClient);
    void runLiveConnection({
      ...(url ? { url } : {}),
      getToken: readToken,
      onEvent: (event) => {
        invalidator.handle(event);
        tellListeners(event);
      },
      onStatus: setLiveStatus,
      signal: controller.signal,
    });
    return () => {
      controller.abort();
      invalidator.dispose();
    };
  }, [queryClient, url]);
}
