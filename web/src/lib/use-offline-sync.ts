import { type QueryClient, useQueryClient } from '@tanstack/react-query';
import { useEffect, useSyncExternalStore } from 'react';
import { toast } from 'sonner';
import { useIsOnline, useLiveStatus } from '../live/live-status';
import { getServerReachable, noteServerReachable, subscribeServerReachable } from './api';
import { notify, TOAST_ERROR_MS } from './notify';
import { offlineTexts, onEnqueued, queuedCount, replayOfflineQueue, subscribeQueue } from './offline-queue';

/** While the browser is online but the server still refuses to answer, try again this often. */
const RETRY_MS = 30_000;

export const changesText = (count: number) => (count === 1 ? '1 change' : `${count} changes`);

/** How many commands wait to be sent. */
export function useQueuedCount(): number {
  return useSyncExternalStore(subscribeQueue, queuedCount, () => 0);
}

/** Whether the server answered the app's last request (api.ts). */
export function useIsServerReachable(): boolean {
  return useSyncExternalStore(subscribeServerReachable, getServerReachable, () => true);
}

let isSyncing = false;

/** One replay at a time per tab, reported once: what went, and each command refused for good. */
export async function syncQueue(client: QueryClient): Promise<void> {
  if (isSyncing) return;
  isSyncing = true;
  try {
    const { sent, refused } = await replayOfflineQueue();
    for (const { command, message } of refused)
      notify.error(`Not sent: ${command.label}. The server refused it: ${message}`);
    if (sent.length > 0) notify.success(`Sent ${changesText(sent.length)} made offline`);
    // What the server now holds replaces the optimistic copies.
    if (sent.length > 0 || refused.length > 0) await client.invalidateQueries();
  } finally {
    isSyncing = false;
  }
}

/**
 * Sends the offline queue when there is a way to the server: at start (a reload, a reopened
 * tab), when the browser comes back online, when the live stream is up again, and now and
 * then while commands still wait; and says "Saved offline" when a command joins the queue.
 * Mount once, in the signed-in layout.
 */
export function useOfflineSync(): void {
  const client = useQueryClient();
  const isOnline = useIsOnline();
  const isLive = useLiveStatus() === 'live';
  const hasQueued = useQueuedCount() > 0;
  // One toast however many commands join at once (a bulk action offline).
  useEffect(
    () => onEnqueued(() => toast.info(offlineTexts.saved, { id: 'saved-offline', duration: TOAST_ERROR_MS })),
    [],
  );
  useEffect(() => {
    // The stream answering is the server answering.
    if (isLive) noteServerReachable(true);
  }, [isLive]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: isLive: a stream that came back is the moment to try
  useEffect(() => {
    if (!isOnline || !hasQueued) return;
    void syncQueue(client);
    const timer = setInterval(() => void syncQueue(client), RETRY_MS);
    return () => clearInterval(timer);
  }, [client, isOnline, isLive, hasQueued]);
}
