import { Bug } from 'lucide-react';
import { cx } from './ui/cx';

export const PRODUCT_NAME = 'Bugtrail';

export function LogoMark({ className }: { className?: string }) {
  return (
    <span
      className={cx(
        'inline-flex items-center justify-center rounded-xl bg-gradient-to-br from-brand-500 to-brand-700 text-white shadow-sm shadow-brand-500/30',
        className ?? 'size-9',
      )}
      aria-hidden="true"
    >
      <Bug className="size-[55%]" strokeWidth={2.2} />
    </span>
  );
}

export function Logo({ className, tone = 'dark' }: { className?: string; tone?: 'dark' | 'light' }) {
  return (
    <span className={cx('inline-flex items-center gap-2.5', className)}>
      <LogoMark />
      <span className={cx('text-lg font-bold tracking-tight', tone === 'dark' ? 'text-slate-900' : 'text-white')}>
        {PRODUCT_NAME}
      </span>
    </span>
  );
}
