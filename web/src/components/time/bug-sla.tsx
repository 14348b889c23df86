import { Timer } from 'lucide-react';
import { formatDateTime } from '../../lib/format';
import type { Bug } from '../../lib/types';
import { Card, CardHeader } from '../ui/card';
import { cx } from '../ui/cx';

/**
 * A bug's SLA (issue 38): the policy that holds for it and each target, when it is due and
 * whether it was met, missed, is at risk or waits. Nothing when no policy holds for the bug.
 */
export function BugSlaCard({ bug }: { bug: Bug }) {
  if (!bug.sla) return null;
  return (
    <Card className="min-w-0" role="region" aria-label="SLA">
      <CardHeader title="SLA" subtitle={`Policy ${bug.sla.policy.name}`} />
      <div className="flex items-start gap-3 p-5">
        <Timer className="mt-0.5 size-4 shrink-0 text-slate-400" aria-hidden="true" />
        <SlaTargets sla={bug.sla} reportedAt={bug.createdAt} />
      </div>
    </Card>
  );
}

type Target = { name: 'respond' | 'resolve'; label: string; due: string | null; done: string | null };

/** A target not met yet is at risk in the last quarter of its window (as the server counts). */
const inLastQuarter = (due: string, reportedAt: string, now: number) =>
  Date.parse(due) - now <= (Date.parse(due) - Date.parse(reportedAt)) / 4;

/** Each target of the bug's SLA: when it is due, and whether it was met, missed, is at risk or waits. */
function SlaTargets({ sla, reportedAt }: { sla: NonNullable<Bug['sla']>; reportedAt: string }) {
  const now = Date.now();
  const targets: Target[] = [
    { name: 'respond', label: 'Respond', due: sla.respondBy, done: sla.respondedAt },
    { name: 'resolve', label: 'Resolve', due: sla.resolveBy, done: sla.resolvedAt },
  ];
  return (
    <ul className="grid gap-2 text-sm text-slate-900">
      {targets.map((target) => {
        if (target.due === null) return null;
        // Read against the clock now: the answer may be older than the due time.
        const missed = target.done ? sla.breached.includes(target.name) : Date.parse(target.due) <= now;
        const state = target.done
          ? missed
            ? 'met late'
            : 'met'
          : missed
            ? 'breached'
            : inLastQuarter(target.due, reportedAt, now)
              ? 'at risk'
              : 'due';
        return (
          <li key={target.name} className="flex flex-wrap items-baseline gap-x-2">
            <span>
              {target.label} by {formatDateTime(target.due)}
            </span>
            <span
              className={cx(
                'rounded-full px-2 py-0.5 text-xs font-medium',
                missed
                  ? 'bg-rose-50 text-rose-700'
                  : target.done
                    ? 'bg-emerald-50 text-emerald-700'
                    : state === 'at risk'
                      ? 'bg-amber-50 text-amber-800'
                      : 'bg-slate-100 text-slate-600',
              )}
            >
              {state}
            </span>
          </li>
        );
      })}
    </ul>
  );
}
