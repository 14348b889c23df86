import type { ReactNode } from 'react';

export function EmptyState({ icon, title, children }: { icon?: ReactNode; title: string; children?: ReactNode }) {
  return (
    <div className="flex flex-col items-center justify-center gap-3 px-6 py-14 text-center">
      {icon ? <div className="rounded-full bg-brand-50 p-3 text-brand-600">{icon}</div> : null}
      <p className="text-sm font-medium text-slate-600">{title}</p>
      {children}
    </div>
  );
}
