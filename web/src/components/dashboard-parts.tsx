import type { ReactNode } from 'react';
import { formatToday, greeting } from '../lib/format';
import { Card, CardHeader } from './ui/card';
import { Skeleton } from './ui/skeleton';

export function Greeting({ name, actions, title }: { name: string; actions?: ReactNode; title?: string }) {
  const now = new Date();
  return (
    <div className="mb-6 flex flex-col gap-4 rounded-2xl bg-gradient-to-br from-brand-600 to-brand-800 p-6 text-white shadow-sm sm:flex-row sm:items-center sm:justify-between">
      <div>
        <h1 className="text-2xl font-bold tracking-tight">{title ?? `${greeting(now)}, ${name}`}</h1>
        <p className="mt-1 text-sm text-brand-100">{formatToday(now)}</p>
      </div>
      {actions ? <div className="flex flex-wrap gap-2">{actions}</div> : null}
    </div>
  );
}

export function ChartCard({
  title,
  isLoading,
  height,
  children,
}: {
  title: string;
  isLoading?: boolean;
  height: number;
  children: ReactNode;
}) {
  return (
    <Card>
      <CardHeader title={title} />
      <div className="p-5">
        {isLoading ? (
          <div style={{ height }}>
            <Skeleton className="h-full w-full" />
          </div>
        ) : (
          children
        )}
      </div>
    </Card>
  );
}
