import { useQuery } from '@tanstack/react-query';
import { createFileRoute, useNavigate } from '@tanstack/react-router';
import { Search, Users } from 'lucide-react';
import { useCallback } from 'react';
import { DownloadReportButton } from '../../components/download-report-button';
import { PageHeader } from '../../components/page-header';
import { Avatar } from '../../components/ui/avatar';
import { Badge } from '../../components/ui/badge';
import { Card } from '../../components/ui/card';
import { cx } from '../../components/ui/cx';
import { EmptyState } from '../../components/ui/empty-state';
import { controlClass } from '../../components/ui/field';
import { SkeletonCards } from '../../components/ui/skeleton';
import { formatNumber } from '../../lib/format';
import { teamQuery } from '../../lib/queries';
import { compact } from '../../lib/search';
import { profileQuery } from '../../lib/session';
import type { TeamMember } from '../../lib/types';
import { useErrorToast } from '../../lib/use-error-toast';
import { useUrlText } from '../../lib/use-url-text';
import { InviteCodes } from './-components/invite-codes';
import { MemberActions } from './-components/member-actions';
import { RoleControl } from './-components/role-control';
import { inviteCodesQuery } from './-components/team-api';
import { listTeam, type TeamSearch, teamSearchFrom, teamSortLabels, teamSorts } from './-components/team-search';

export const Route = createFileRoute('/admin/users')({
  validateSearch: teamSearchFrom,
  loader: ({ context }) => {
    void context.queryClient.prefetchQuery(teamQuery());
    void context.queryClient.prefetchQuery(inviteCodesQuery());
  },
  component: TeamMembersPage,
});

function TeamMembersPage() {
  const search = Route.useSearch();
  const navigate = useNavigate({ from: Route.fullPath });
  const onSearch = useCallback(
    (patch: Partial<TeamSearch>) => void navigate({ search: (prev) => compact({ ...prev, ...patch }), replace: true }),
    [navigate],
  );
  const { data, isPending, error } = useQuery(teamQuery());
  const { data: me } = useQuery(profileQuery());
  useErrorToast(error, 'Failed to load team members');
  const shown = data ? listTeam(data, search) : [];

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
      <TeamToolbar search={search} onSearch={onSearch} />
      {isPending ? (
        <SkeletonCards />
      ) : !data || data.length === 0 ? (
        <Card>
          <EmptyState icon={<Users className="size-6" />} title="No team members yet" />
        </Card>
      ) : shown.length === 0 ? (
        <Card>
          <EmptyState icon={<Search className="size-6" />} title={`No team members match “${search.q ?? ''}”`} />
        </Card>
      ) : (
        <>
          <p className="sr-only" role="status">
            {shown.length === data.length
              ? `${shown.length} team members`
              : `${shown.length} of ${data.length} team members`}
          </p>
          <ul aria-label="Team members" className="grid grid-cols-1 gap-4 sm:grid-cols-2 xl:grid-cols-3">
            {shown.map((member) => (
              <li key={member._id}>
                <MemberCard member={member} isSelf={member._id === me?._id} />
              </li>
            ))}
          </ul>
        </>
      )}
      <InviteCodes />
    </>
  );
}

function TeamToolbar({ search, onSearch }: { search: TeamSearch; onSearch: (patch: Partial<TeamSearch>) => void }) {
  const [text, setText] = useUrlText(search.q ?? '', (q) => onSearch({ q: q || undefined }), 250);
  return (
    <div className="mb-4 flex flex-col gap-2 sm:flex-row sm:items-center">
      <div className="relative min-w-0 flex-1">
        <Search
          className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-slate-400"
          aria-hidden="true"
        />
        <label htmlFor="team-search" className="sr-only">
          Search team members
        </label>
        <input
          id="team-search"
          type="search"
          value={text}
          onChange={(event) => setText(event.target.value)}
          placeholder="Search by name or email"
          className={cx(controlClass(), 'h-9 pl-9')}
        />
      </div>
      <div className="flex items-center gap-2">
        <label htmlFor="team-sort" className="shrink-0 text-sm text-slate-600">
          Sort by
        </label>
        <select
          id="team-sort"
          value={search.sort ?? 'name'}
          onChange={(event) => {
            const sort = event.target.value as TeamSearch['sort'] | 'name';
            onSearch({ sort: sort === 'name' ? undefined : sort });
          }}
          className={cx(controlClass(), 'h-9 w-full pr-8 sm:w-44')}
        >
          {teamSorts.map((sort) => (
            <option key={sort} value={sort}>
              {teamSortLabels[sort]}
            </option>
          ))}
        </select>
      </div>
    </div>
  );
}

function MemberCard({ member, isSelf }: { member: TeamMember; isSelf: boolean }) {
  const isDeactivated = member.deactivated === true;
  return (
    <Card className={cx('flex h-full flex-col p-5', isDeactivated && 'border-dashed bg-slate-50 shadow-none')}>
      <div className="flex items-center gap-4">
        <Avatar user={member} size="md" className={cx(isDeactivated && 'grayscale')} />
        <div className="min-w-0 flex-1">
          <div className="flex min-w-0 flex-wrap items-center gap-x-2 gap-y-1">
            <p className={cx('truncate font-semibold', isDeactivated ? 'text-slate-600' : 'text-slate-900')}>
              {member.name}
            </p>
            {isSelf ? <Badge tone="violet">You</Badge> : null}
            {isDeactivated ? <Badge tone="amber">Deactivated</Badge> : null}
          </div>
          <p className="truncate text-sm text-slate-500">{member.email}</p>
        </div>
      </div>
      <dl className="mt-5 mb-4 grid grid-cols-3 gap-2 text-center">
        {[
          ['Pending', member.pendingTasks, 'text-[#6c3bd9]'],
          ['In Progress', member.inProgressTasks, 'text-cyan-700'],
          ['Completed', member.completedTasks, 'text-lime-700'],
        ].map(([label, value, tone]) => (
          <div
            key={label as string}
            className={cx('flex flex-col-reverse rounded-lg px-2 py-2.5', isDeactivated ? 'bg-white' : 'bg-slate-50')}
          >
            <dt className="text-xs text-slate-500">{label}</dt>
            <dd className={`text-lg font-bold ${tone}`}>{formatNumber(value as number)}</dd>
          </div>
        ))}
      </dl>
      <div className="mt-auto space-y-3 border-t border-slate-100 pt-4">
        <RoleControl member={member} isSelf={isSelf} />
        <MemberActions member={member} isSelf={isSelf} />
      </div>
    </Card>
  );
}
