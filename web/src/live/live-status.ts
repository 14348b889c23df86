import { useSyncExternalStore } from 'react';

/**
 * `connecting`: first attempt; `live`: the stream is up; `reconnecting`: it dropped
 * and we are retrying (the 60 s chat refresh and Refresh buttons cover the gap);
 * `offline`: no session, or the server refused the token.
 */
export type LiveStatus = 'connecting' | 'live' | 'reconnecting' | 'offline';

let current: LiveStatus = 'offline';
const listeners = new Set<() => void>();

export function setLiveStatus(status: LiveStatus): void {
  if (status === current) return;
  current = status;
  for (const listener of listeners) listener();
}

export function getLiveStatus(): LiveStatus {
  return current;
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The state of the app's one live stream, for any component that shows it. */
export function useLiveStatus(): LiveStatus {
  return useSyncExternalStore(subscribe, getLiveStatus, () => 'offline' as const);
}

/** The browser's own idea of the network (navigator.onLine, kept current by its events). */
function subscribeOnline(listener: () => void): () => void {
  window.addEventListener('online', listener);
  window.addEventListener('offline', listener);
  return () => {
    window.removeEventListener('online', listener);
    window.removeEventListener('offline', listener);
  };
}

export function useIsOnline(): boolean {
  return useSyncExternalStore(
    subscribeOnline,
    () => navigator.onLine,
    () => true,
  );
}

/**
 * Whether pages are not being kept fresh: the browser is offline, or the stream dropped
 * (or was refused). A first connection still under way is not counted as down.
 */
export function isLiveDown(status: LiveStatus, isOnline: boolean): boolean {
  return !isOnline || status === 'reconnecting' || status === 'offline';
}
