import { useQueryClient } from '@tanstack/react-query';
import { CloudOff, WifiOff } from 'lucide-react';
import { useState } from 'react';
import { offlineTexts } from '../lib/offline-queue';
import { changesText, syncQueue, useIsServerReachable, useOfflineSync, useQueuedCount } from '../lib/use-offline-sync';
import { useIsOnline } from '../live/live-status';

/**
 * Says plainly when the app works without its server: offline (or the server out of
 * reach), what is shown is the last data seen, and how many changes wait to be sent. The
 * live region is always there (empty when all is well) so screen readers hear it change.
 * Also runs the offline queue's replay (useOfflineSync): mount it once.
 */
export function OfflineBanner() {
  useOfflineSync();
  const isOnline = useIsOnline();
  const isReachable = useIsServerReachable();
  const queued = useQueuedCount();
  const isShown = !isOnline || !isReachable || queued > 0;
  const headline = !isOnline
    ? offlineTexts.offline
    : !isReachable
      ? offlineTexts.unreachable
      : `${changesText(queued)} made offline ${queued === 1 ? 'is' : 'are'} being sent.`;
  const Icon = isOnline ? CloudOff : WifiOff;
  return (
    <div role="status" aria-live="polite" className={isShown ? 'sticky top-16 z-10' : 'sr-only'}>
      {isShown ? (
        <div className="border-b border-amber-200 bg-amber-50 px-4 py-2.5 text-sm text-amber-900 sm:px-6">
          <div className="mx-auto flex w-full max-w-7xl items-start gap-2.5 lg:px-2">
            <Icon className="mt-0.5 size-4 shrink-0 text-amber-600" aria-hidden="true" />
            <p className="min-w-0 flex-1 leading-5">
              {headline}
              {queued > 0 && (!isOnline || !isReachable) ? (
                <>
                  {' '}
                  <strong className="font-semibold" data-testid="offline-queued">
                    {changesText(queued)} waiting to be sent.
                  </strong>
                </>
              ) : null}
            </p>
            {isOnline && queued > 0 ? <SendNowButton /> : null}
          </div>
        </div>
      ) : null}
    </div>
  );
}

/** For a server that came back before the next automatic try. */
function SendNowButton() {
  const client = useQueryClient();
  const [isSending, setSending] = useState(false);
  return (
    <button
      type="button"
      disabled={isSending}
      onClick={async () => {
        setSending(true);
        try {
          await syncQueue(client);
        } finally {
          setSending(false);
        }
      }}
      className="shrink-0 rounded-md px-2 py-0.5 font-semibold text-amber-900 underline underline-offset-2 hover:bg-amber-100 disabled:opacity-60"
    >
      Send now
    </button>
  );
}
