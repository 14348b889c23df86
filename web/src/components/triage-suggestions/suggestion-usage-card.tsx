import { Lightbulb } from 'lucide-react';
import type { DashboardSuggestionUsage } from '../../lib/types';
import { Card, CardHeader } from '../ui/card';

const rows = [
  { kind: 'duplicates', label: 'Likely duplicates' },
  { kind: 'severity', label: 'Severity' },
  { kind: 'priority', label: 'Priority' },
  { kind: 'assignees', label: 'Developers' },
] as const;

const percent = (part: number, whole: number) => (whole > 0 ? `${Math.round((part / whole) * 100)}%` : '—');

/**
 * The admin dashboard's "Triage suggestions" card: of the reports made with the form's
 * suggestions, how often each kind was shown and how often it was taken.
 */
export function SuggestionUsageCard({ usage, className }: { usage: DashboardSuggestionUsage; className?: string }) {
  return (
    <Card className={className}>
      <CardHeader
        title={
          <span className="flex items-center gap-2">
            <Lightbulb className="size-4 text-brand-600" aria-hidden="true" /> Triage suggestions
          </span>
        }
        subtitle={`${usage.reports} report${usage.reports === 1 ? '' : 's'} made with suggestions`}
      />
      <div className="overflow-x-auto px-5 py-3">
        <table className="w-full text-sm">
          <caption className="sr-only">How often each kind of suggestion was shown and taken</caption>
          <thead>
            <tr className="text-left text-xs text-slate-500">
              <th scope="col" className="py-1.5 font-medium">
                Suggestion
              </th>
              <th scope="col" className="py-1.5 text-right font-medium">
                Shown
              </th>
              <th scope="col" className="py-1.5 text-right font-medium">
                Taken
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100 text-slate-700">
            {rows.map(({ kind, label }) => {
              const shown = usage.shown[kind];
              const taken = kind === 'duplicates' ? null : usage.taken[kind];
              return (
                <tr key={kind}>
                  <th scope="row" className="py-1.5 text-left font-medium">
                    {label}
                  </th>
                  <td className="py-1.5 text-right tabular-nums">{shown}</td>
                  <td className="py-1.5 text-right tabular-nums">
                    {taken === null ? (
                      <span title="A duplicate is a link: nothing to take">—</span>
                    ) : (
                      `${taken} (${percent(taken, shown)})`
                    )}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </Card>
  );
}
