import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { percent, slaComplianceQuery, type TargetCompliance } from '../../lib/sla';
import { cx } from '../ui/cx';
import { EmptyChart, FlowCard } from './chart-frame';
import { csvFileName } from './csv';
import type { FlowSearch } from './flow-search';

/**
 * SLA compliance per policy (issue 38) over the bugs reported in the page's range (and project):
 * how many met each target in time, missed it, or are not due yet. A policy written today is
 * measured over the past already.
 */
export function SlaComplianceCard({ search, canManage }: { search: FlowSearch; canManage: boolean }) {
  const figures = useQuery(slaComplianceQuery({ from: search.from, to: search.to, project: search.project }));
  const rows = figures.data?.policies ?? [];
  const table = figures.data
    ? {
        header: [
          'policy_id',
          'policy',
          'bugs',
          'respond_met',
          'respond_breached',
          'respond_pending',
          'resolve_met',
          'resolve_breached',
          'resolve_pending',
        ],
        rows: rows.map((p) => [
          p._id,
          p.name,
          p.bugs,
          p.respond?.met ?? '',
          p.respond?.breached ?? '',
          p.respond?.pending ?? '',
          p.resolve?.met ?? '',
          p.resolve?.breached ?? '',
          p.resolve?.pending ?? '',
        ]),
      }
    : null;
  return (
    <FlowCard
      title="SLA compliance"
      subtitle="Bugs reported in the range that met each target of their policy in time."
      csv={{ fileName: csvFileName('sla-compliance', new Date().toISOString()), table }}
      isLoading={figures.isPending}
      isUpdating={figures.isPlaceholderData}
      height={160}
    >
      {rows.length === 0 ? (
        <EmptyChart text="No SLA policies yet" />
      ) : (
        <div className="overflow-x-auto">
          <table className="w-full text-left text-sm">
            <thead className="text-xs tracking-wide text-slate-500 uppercase">
              <tr>
                <th className="py-2 pr-3 font-medium">Policy</th>
                <th className="py-2 pr-3 text-right font-medium">Bugs</th>
                <th className="py-2 pr-3 font-medium">Responded in time</th>
                <th className="py-2 font-medium">Resolved in time</th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {rows.map((p) => (
                <tr key={p._id}>
                  <td className="py-2 pr-3 font-medium text-slate-900">
                    {p.name}
                    <span className="block text-xs font-normal text-slate-500">
                      {[
                        p.respondWithin && `respond ${p.respondWithin}`,
                        p.resolveWithin && `resolve ${p.resolveWithin}`,
                      ]
                        .filter(Boolean)
                        .join(' · ')}
                    </span>
                  </td>
                  <td className="py-2 pr-3 text-right tabular-nums text-slate-700">{p.bugs}</td>
                  <td className="py-2 pr-3">
                    <Target figures={p.respond} />
                  </td>
                  <td className="py-2">
                    <Target figures={p.resolve} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          {canManage ? (
            <p className="mt-3 text-xs text-slate-500">
              Policies are written on the{' '}
              <Link to="/admin/automations" className="font-medium text-brand-700 hover:underline">
                Automations
              </Link>{' '}
              page.
            </p>
          ) : null}
        </div>
      )}
    </FlowCard>
  );
}

function Target({ figures }: { figures: TargetCompliance | null }) {
  if (!figures) return <span className="text-slate-400">No target</span>;
  const share = figures.compliance;
  return (
    <div className="grid min-w-40 gap-1">
      <div className="flex items-baseline justify-between gap-2">
        <span
          className={cx(
            'font-semibold tabular-nums',
            share === null
              ? 'text-slate-400'
              : share >= 0.9
                ? 'text-emerald-700'
                : share >= 0.7
                  ? 'text-amber-700'
                  : 'text-rose-700',
          )}
        >
          {percent(share)}
        </span>
        <span className="text-xs text-slate-500 tabular-nums">
          {figures.met} met · {figures.breached} missed · {figures.pending} open
        </span>
      </div>
      <div className="h-1.5 overflow-hidden rounded-full bg-slate-100" aria-hidden="true">
        <div className="h-full rounded-full bg-emerald-500" style={{ width: `${Math.round((share ?? 0) * 100)}%` }} />
      </div>
    </div>
  );
}
