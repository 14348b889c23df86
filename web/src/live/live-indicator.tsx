import { type LiveStatus, useLiveStatus } from './live-status';

const labels: Record<LiveStatus, string> = {
  live: 'Live updates on',
  connecting: 'Connecting to live updates',
  reconnecting: 'Live updates interrupted, reconnecting',
  offline: 'Live updates off',
};

const dots: Record<LiveStatus, string> = {
  live: 'bg-emerald-500',
  connecting: 'bg-amber-400 animate-pulse',
  reconnecting: 'bg-amber-500 animate-pulse',
  offline: 'bg-gray-400',
};

/** A small dot saying whether the page is updating by itself; the label is for screen readers and hover. */
export function LiveIndicator({ className = '' }: { className?: string }) {
  const status = useLiveStatus();
  const label = labels[status];
  return (
    <span
      role="status"
      aria-live="polite"
      title={label}
      data-live-status={status}
      className={`inline-flex items-center ${className}`}
    >
      <span aria-hidden="true" className={`inline-block h-2.5 w-2.5 rounded-full ${dots[status]}`} />
      <span className="sr-only">{label}</span>
    </span>
  );
}
