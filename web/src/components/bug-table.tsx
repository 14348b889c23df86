import { assigneeNames, bugModule, bugTitle, formatTableDate } from '../lib/format';
import type { Bug, Role } from '../lib/types';
import { PriorityBadge, SeverityBadge, StatusBadge } from './ui/badge';
import { SkeletonRows } from './ui/skeleton';

/**
 * The shared bug table. Module, Assigned To and Created On hide when the table is narrow
 * (a container query, so a table in a half-width card behaves like one on a phone).
 * Rows are links for the keyboard too: Enter opens the bug like a click.
 */
export function BugTable({
  bugs,
  viewAs,
  onRowClick,
  isLoading,
  emptyText = 'No bugs found.',
}: {
  bugs: Bug[];
  viewAs: Role;
  onRowClick: (id: string) => void;
  isLoading?: boolean;
  emptyText?: string;
}) {
  if (isLoading) return <SkeletonRows rows={5} />;
  if (bugs.length === 0) return <p className="px-5 py-12 text-center text-sm text-slate-500">{emptyText}</p>;
  return (
    <div className="@container overflow-x-auto">
      <table className="w-full text-left text-sm">
        <thead className="border-b border-slate-200 bg-slate-50/70 text-xs font-semibold tracking-wide text-slate-500 uppercase">
          <tr>
            <th scope="col" className="px-5 py-3">
              Title
            </th>
            <th scope="col" className="px-3 py-3">
              Status
            </th>
            <th scope="col" className="px-3 py-3">
              Priority
            </th>
            <th scope="col" className="px-3 py-3">
              Severity
            </th>
            <th scope="col" className="hidden px-3 py-3 @2xl:table-cell">
              Module
            </th>
            <th scope="col" className="hidden px-3 py-3 @2xl:table-cell">
              Assigned To
            </th>
            <th scope="col" className="hidden px-5 py-3 @2xl:table-cell">
              Created On
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {bugs.map((bug) => (
            <tr
              key={bug._id}
              tabIndex={0}
              onClick={() => onRowClick(bug._id)}
              onKeyDown={(event) => {
                if (event.key === 'Enter') onRowClick(bug._id);
              }}
              className="cursor-pointer transition hover:bg-brand-50/40 focus:bg-brand-50/60 focus:outline-none"
            >
              <td className="max-w-[18rem] truncate px-5 py-3.5 font-medium text-slate-900">{bugTitle(bug)}</td>
              <td className="px-3 py-3.5">
                <StatusBadge status={bug.status} viewAs={viewAs} />
              </td>
              <td className="px-3 py-3.5">
                <PriorityBadge priority={bug.priority} />
              </td>
              <td className="px-3 py-3.5">
                <SeverityBadge severity={bug.severity} />
              </td>
              <td className="hidden max-w-[10rem] truncate px-3 py-3.5 text-slate-600 @2xl:table-cell">
                {bugModule(bug)}
              </td>
              <td className="hidden max-w-[12rem] truncate px-3 py-3.5 text-slate-600 @2xl:table-cell">
                {assigneeNames(bug.assignedTo)}
              </td>
              <td className="hidden px-5 py-3.5 whitespace-nowrap text-slate-600 @2xl:table-cell">
                {formatTableDate(bug.createdAt)}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
