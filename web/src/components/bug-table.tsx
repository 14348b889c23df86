import { assigneeNames, bugModule, bugTitle, formatTableDate } from '../lib/format';
import type { Bug, Role } from '../lib/types';
import { PriorityBadge, SeverityBadge, StatusBadge } from './ui/badge';
import { SkeletonRows } from './ui/skeleton';

/**
 * The shared bug table. It never grows wider than its box: the layout is fixed, every
 * column but Title has a set width, and long text is cut with an ellipsis (the full text
 * is its tooltip). Columns drop out as the box narrows (a container query, so a table in
 * a half-width card behaves like one on a phone): Module first, then Assigned To and
 * Created On, and in a phone-wide box Priority and Severity move under the title.
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
    <div className="@container">
      <table className="w-full table-fixed text-left text-sm">
        <thead className="border-b border-slate-200 bg-slate-50/70 text-xs font-semibold tracking-wide text-slate-500 uppercase">
          <tr>
            <th scope="col" className="py-3 pr-3 pl-5">
              Title
            </th>
            <th scope="col" className="w-32 px-3 py-3">
              Status
            </th>
            <th scope="col" className="hidden w-24 px-3 py-3 @lg:table-cell">
              Priority
            </th>
            <th scope="col" className="hidden w-24 px-3 py-3 @lg:table-cell">
              Severity
            </th>
            <th scope="col" className="hidden w-28 px-3 py-3 @4xl:table-cell">
              Module
            </th>
            <th scope="col" className="hidden w-36 px-3 py-3 @3xl:table-cell">
              Assigned To
            </th>
            <th scope="col" className="hidden w-38 py-3 pr-5 pl-3 @3xl:table-cell">
              Created On
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {bugs.map((bug) => {
            const title = bugTitle(bug);
            const module = bugModule(bug);
            const assignees = assigneeNames(bug.assignedTo);
            return (
              <tr
                key={bug._id}
                tabIndex={0}
                onClick={() => onRowClick(bug._id)}
                onKeyDown={(event) => {
                  if (event.key === 'Enter') onRowClick(bug._id);
                }}
                className="cursor-pointer transition hover:bg-brand-50/40 focus-visible:bg-brand-50/60 focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-brand-500"
              >
                <td className="py-3.5 pr-3 pl-5">
                  <p className="truncate font-medium text-slate-900" title={title}>
                    {title}
                  </p>
                  {/* In a phone-wide box the levels ride under the title instead of in their own columns. */}
                  <p className="mt-1.5 flex flex-wrap gap-1.5 @lg:hidden">
                    <PriorityBadge priority={bug.priority} />
                    <SeverityBadge severity={bug.severity} />
                  </p>
                </td>
                <td className="px-3 py-3.5">
                  <StatusBadge status={bug.status} viewAs={viewAs} />
                </td>
                <td className="hidden px-3 py-3.5 @lg:table-cell">
                  <PriorityBadge priority={bug.priority} />
                </td>
                <td className="hidden px-3 py-3.5 @lg:table-cell">
                  <SeverityBadge severity={bug.severity} />
                </td>
                <td className="hidden truncate px-3 py-3.5 text-slate-600 @4xl:table-cell" title={module}>
                  {module}
                </td>
                <td className="hidden truncate px-3 py-3.5 text-slate-600 @3xl:table-cell" title={assignees}>
                  {assignees}
                </td>
                <td className="hidden truncate py-3.5 pr-5 pl-3 text-slate-600 @3xl:table-cell">
                  {formatTableDate(bug.createdAt)}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
