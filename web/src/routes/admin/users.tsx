import { useQuery } from '@tanstack/react-query';
import { createFileRoute } from '@tanstack/react-router';
import { Users } from 'lucide-react';
import { DownloadReportButton } from '../../components/download-report-button';
import { PageHeader } from '../../components/page-header';
import { Avatar } from '../../components/ui/avatar';
import { Card } from '../../components/ui/card';
import { EmptyState } from '../../components/ui/empty-state';
import { SkeletonCards } from '../../components/ui/skeleton';
import { formatNumber } from '../../lib/format';
import { teamQuery } from '../../lib/queries';
import { profileQuery } from '../../lib/session';
import { useErrorToast } from '../../lib/use-error-toast';
import { RoleControl } from './-components/role-control';

export const Route = createFileRoute('/admin/users')({
  loader: ({ context }) => {
    void context.queryClient.prefetchQuery(teamQuery());
  },
  component: TeamMembersPage,
});

function TeamMembersPage() {
  const { data, isPending, error } = useQuery(teamQuery());
  const { data: me } = useQuery(profileQuery());
  useErrorToast(error, 'Failed to load team members');
  return (
    <>
      <PageHeader
        title="Team Members"
        subtitle="Everyone on the team and their workload."
        actions={
          <DownloadReportButton
            path="/api/reports/export/users"
            filename="user_details.xlsx"
            failure="Failed to download expense details. Please try again."
          />
        }
      />
      {isPending ? (
        <SkeletonCards />
      ) : !data || data.length === 0 ? (
        <Card>
          <EmptyState icon={<Users className="size-6" />} title="No team members yet" />
        </Card>
      ) : (
        <ul className="grid grid-cols-1 gap-4 sm:grid-cols-2 xl:grid-cols-3">
          {data.map((member) => (
            <li key={member._id}>
              <Card className="p-5">
                <div className="flex items-center gap-4">
                  <Avatar user={member} size="md" />
                  <div className="min-w-0 flex-1">
                    <p className="truncate font-semibold text-slate-900">{member.name}</p>
                    <p className="truncate text-sm text-slate-500">{member.email}</p>
                  </div>
                </div>
                <dl className="mt-5 grid grid-cols-3 gap-2 text-center">
                  {[
                    ['Pending', member.pendingTasks, 'text-[#6c3bd9]'],
                    ['In Progress', member.inProgressTasks, 'text-cyan-700'],
                    ['Completed', member.completedTasks, 'text-lime-700'],
                  ].map(([label, value, tone]) => (
                    <div key={label as string} className="flex flex-col-reverse rounded-lg bg-slate-50 px-2 py-2.5">
                      <dt className="text-xs text-slate-500">{label}</dt>
                      <dd className={`text-lg font-bold ${tone}`}>{formatNumber(value as number)}</dd>
                    </div>
                  ))}
                </dl>
                <div className="mt-4 border-t border-slate-100 pt-4">
                  <RoleControl member={member} isSelf={member._id === me?._id} />
                </div>
              </Card>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
