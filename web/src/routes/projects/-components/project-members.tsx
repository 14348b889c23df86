import type { ProjectDto, ProjectRole } from '@bugtrail/domain/vocabulary';
import { useQuery } from '@tanstack/react-query';
import { UserPlus, X } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { chatDirectoryQuery } from '../../../chat/chat-api';
import { Avatar } from '../../../components/ui/avatar';
import { Button } from '../../../components/ui/button';
import { Card, CardHeader } from '../../../components/ui/card';
import { cx } from '../../../components/ui/cx';
import { controlClass } from '../../../components/ui/field';
import { messageOf } from '../../../lib/api';
import { notify } from '../../../lib/notify';
import { useRemoveProjectMember, useSetProjectMember } from '../../../lib/projects';

const roleLabels: Record<ProjectRole, string> = { lead: 'Lead', member: 'Member' };

/** Who belongs to the project: leads first; admins and leads add people, change roles and remove them. */
export function ProjectMembers({ project, canManage }: { project: ProjectDto; canManage: boolean }) {
  const setMember = useSetProjectMember(project._id);
  const remove = useRemoveProjectMember(project._id);
  const onError = (fallback: string) => (error: unknown) => notify.error(messageOf(error, fallback));
  return (
    <Card>
      <CardHeader
        title="Members"
        subtitle={`${project.members.length === 1 ? '1 person' : `${project.members.length} people`}. Leads change the project and its members.`}
      />
      {canManage ? <AddMember project={project} /> : null}
      {project.members.length === 0 ? (
        <p className="border-t border-slate-100 px-5 py-4 text-sm text-slate-500">No members yet.</p>
      ) : (
        <ul aria-label="Members" className="divide-y divide-slate-100 border-t border-slate-100">
          {project.members.map(({ user, role }) => (
            <li key={user._id} className="flex items-center gap-3 px-5 py-3">
              <Avatar user={user} size="sm" />
              <span className="min-w-0 flex-1 truncate text-sm font-medium text-slate-900">{user.name}</span>
              {canManage ? (
                <>
                  <div className="w-28 shrink-0">
                    <select
                      aria-label={`Role of ${user.name}`}
                      value={role}
                      onChange={(event) =>
                        setMember.mutate(
                          { userId: user._id, role: event.target.value as ProjectRole },
                          { onError: onError('Could not change the role') },
                        )
                      }
                      className={cx(controlClass(), 'h-9')}
                    >
                      <option value="lead">Lead</option>
                      <option value="member">Member</option>
                    </select>
                  </div>
                  <button
                    type="button"
                    aria-label={`Remove ${user.name}`}
                    onClick={() =>
                      remove.mutate(user._id, {
                        onSuccess: () => notify.success(`${user.name} removed`),
                        onError: onError('Could not remove the member'),
                      })
                    }
                    className="rounded-md p-1.5 text-slate-500 hover:bg-rose-50 hover:text-rose-700"
                  >
                    <X className="size-4" />
                  </button>
                </>
              ) : (
                <span className="text-sm text-slate-600">{roleLabels[role]}</span>
              )}
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}

/** A people picker: anyone not yet a member, as a lead or a member. */
function AddMember({ project }: { project: ProjectDto }) {
  const people = useQuery(chatDirectoryQuery());
  const setMember = useSetProjectMember(project._id);
  const [userId, setUserId] = useState('');
  const [role, setRole] = useState<ProjectRole>('member');
  const members = new Set(project.members.map((m) => m.user._id));
  const candidates = (people.data ?? []).filter((p) => !members.has(p._id));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!userId) return;
    setMember.mutate(
      { userId, role },
      {
        onSuccess: () => setUserId(''),
        onError: (error) => notify.error(messageOf(error, 'Could not add the member')),
      },
    );
  };
  return (
    <form onSubmit={submit} className="flex flex-col gap-2 px-5 py-4 sm:flex-row">
      <select
        aria-label="Person to add"
        value={userId}
        onChange={(event) => setUserId(event.target.value)}
        className={cx(controlClass(), 'h-10 min-w-0 sm:flex-1')}
      >
        <option value="">{people.isPending ? 'Loading people…' : 'Choose a person'}</option>
        {candidates.map((person) => (
          <option key={person._id} value={person._id}>
            {person.name}
          </option>
        ))}
      </select>
      <select
        aria-label="Role in the project"
        value={role}
        onChange={(event) => setRole(event.target.value as ProjectRole)}
        className={cx(controlClass(), 'h-10 sm:w-32 sm:shrink-0')}
      >
        <option value="member">Member</option>
        <option value="lead">Lead</option>
      </select>
      <Button type="submit" icon={<UserPlus className="size-4" />} isLoading={setMember.isPending} disabled={!userId}>
        Add
      </Button>
    </form>
  );
}
