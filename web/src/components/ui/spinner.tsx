import { cx } from './cx';

export function Spinner({ className, label = 'Loading' }: { className?: string; label?: string }) {
  return (
    <span role="status" aria-label={label} className={cx('inline-block', className)}>
      <span className="block size-full animate-spin rounded-full border-2 border-current border-r-transparent" />
    </span>
  );
}

export function FullScreenSpinner() {
  return (
    <div className="flex min-h-screen items-center justify-center bg-slate-50 text-brand-600">
      <Spinner className="size-10" />
    </div>
  );
}
