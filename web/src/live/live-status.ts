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
