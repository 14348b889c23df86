import { bugDefaults } from '@bugtrail/domain/vocabulary';
import { statusLabel } from '../../lib/format';
import type { BugStatus, Priority, Role, Severity } from '../../lib/types';
import { cx } from './cx';

type Tone = 'violet' | 'cyan' | 'green' | 'amber' | 'rose' | 'slate' | 'orange';
const tones: Record<Tone, string> = {
  violet: 'bg-brand-50 text-brand-700 ring-brand-200',
  cyan: 'bg-cyan-50 text-cyan-800 ring-cyan-200',
  green: 'bg-lime-50 text-lime-800 ring-lime-200',
  amber: 'bg-amber-50 text-amber-800 ring-amber-200',
  rose: 'bg-rose-50 text-rose-700 ring-rose-200',
  orange: 'bg-orange-50 text-orange-800 ring-orange-200',
  slate: 'bg-slate-100 text-slate-700 ring-slate-200',
};

export function Badge({
  tone = 'slate',
  children,
  className,
}: {
  tone?: Tone;
  children: React.ReactNode;
  className?: string;
}) {
  return (
    <span
      className={cx(
        'inline-flex items-center gap-1 rounded-full px-2.5 py-0.5 text-xs font-medium whitespace-nowrap ring-1 ring-inset',
        tones[tone],
        className,
      )}
    >
      {children}
    </span>
  );
}

const statusTone: Record<BugStatus, Tone> = { Open: 'violet', 'In Progress': 'cyan', Closed: 'green' };
const priorityTone: Record<Priority, Tone> = { High: 'rose', Medium: 'amber', Low: 'slate' };
const severityTone: Record<Severity, Tone> = { Critical: 'rose', Major: 'orange', Minor: 'slate' };

export function StatusBadge({ status, viewAs }: { status: BugStatus | null | undefined; viewAs: Role }) {
  const value = status ?? bugDefaults.status;
  return (
    <Badge tone={statusTone[value] ?? 'slate'}>
      <span className="size-1.5 rounded-full bg-current" aria-hidden="true" />
      {statusLabel(value, viewAs)}
    </Badge>
  );
}

export function PriorityBadge({ priority }: { priority: Priority | null | undefined }) {
  const value = priority ?? bugDefaults.priority;
  return <Badge tone={priorityTone[value] ?? 'slate'}>{value}</Badge>;
}

export function SeverityBadge({ severity }: { severity: Severity | null | undefined }) {
  const value = severity ?? bugDefaults.severity;
  return <Badge tone={severityTone[value] ?? 'slate'}>{value}</Badge>;
}
