import type { LucideIcon } from 'lucide-react';
import { formatNumber } from '../lib/format';
import { cx } from './ui/cx';
import { Skeleton } from './ui/skeleton';

const accents = {
  brand: 'bg-brand-50 text-brand-600',
  violet: 'bg-violet-50 text-[#8D51FF]',
  cyan: 'bg-cyan-50 text-cyan-700',
  green: 'bg-lime-50 text-lime-700',
} as const;

export function StatCard({
  label,
  value,
  icon: Icon,
  accent = 'brand',
  isLoading,
}: {
  label: string;
  value: number | undefined;
  icon: LucideIcon;
  accent?: keyof typeof accents;
  isLoading?: boolean;
}) {
  return (
    <div className="flex items-center gap-4 rounded-xl border border-slate-200 bg-white p-5 shadow-xs">
      <span className={cx('rounded-xl p-3', accents[accent])}>
        <Icon className="size-6" aria-hidden="true" />
      </span>
      <div className="min-w-0">
        <p className="text-sm leading-tight font-medium text-slate-500">{label}</p>
        {isLoading ? (
          <Skeleton className="mt-1 h-7 w-16" />
        ) : (
          <p className="text-2xl font-bold text-slate-900">{formatNumber(value)}</p>
        )}
      </div>
    </div>
  );
}
