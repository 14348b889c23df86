import { isLiveDown, type LiveStatus, useIsOnline, useLiveStatus } from './live-status';

const labels: Record<LiveStatus, string> = {
  live: 'Live updates on',
  connecting: 'Connecting to live updates',
  reconnecting: 'Live updates down, reconnecting',
  offline: 'Live updates down',
};
const OFFLINE_LABEL = 'Live updates down: you are offline';

/**
 * A small dot saying whether the page is updating by itself: green when live, grey when
 * the stream is down or the browser is offline; the label is for screen readers and hover.
 */
export function LiveIndicator({ className = '' }: { className?: string }) {
  const status = useLiveStatus();
  const isOnline = useIsOnline();
  const isDown = isLiveDown(status, isOnline);
  const label = isOnline ? labels[status] : OFFLINE_LABEL;
  const dot = status === 'live' && isOnline ? 'bg-emerald-500' : isDown ? 'bg-gray-400' : 'bg-amber-400 animate-pulse';
  return (
    <span
      role="status"
      aria-live="polite"
      aria-label={label}
      title={label}
      data-live-status={status}
      data-live-down={isDown}
      className={`inline-flex items-center ${className}`}
    >
      <span aria-hidden="true" className={`inline-block h-2.5 w-2.5 rounded-full ${dot}`} />
      <span className="sr-only">{label}</span>
    </span>
  );
}
