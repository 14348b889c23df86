import { roleDisplayNames, roles } from '@bugtrail/domain/vocabulary';
import { useNavigate } from '@tanstack/react-router';
import { useId, useState } from 'react';
import { ConfirmModal } from '../../../components/confirm-modal';
import { cx } from '../../../components/ui/cx';
import { messageOf } from '../../../lib/api';
import { useChangeRole } from '../../../lib/mutations';
import { notify } from '../../../lib/notify';
import type { Role, TeamMember } from '../../../lib/types';

const article = (role: Role) => (role === 'admin' || role === 'auditor' ? 'an' : 'a');

/**
 * A member's role on the Team Members page: pick one, confirm, and the server decides
 * (PUT /api/users/{id}/role; "At least one admin must remain" shows in the dialog).
 */
export function RoleControl({ member, isSelf }: { member: TeamMember; isSelf: boolean }) {
  const selectId = useId();
  const navigate = useNavigate();
  const change = useChangeRole();
  const [wanted, setWanted] = useState<Role | null>(null);
  const [problem, setProblem] = useState<string | null>(null);

  const close = () => {
    setWanted(null);
    setProblem(null);
  };
  const confirm = () => {
    if (!wanted) return;
    change.mutate(
      { id: member._id, role: wanted },
      {
        onSuccess: () => {
          notify.success(`${member.name} is now ${article(wanted)} ${roleDisplayNames[wanted]}`);
          close();
          // No longer an admin: this page is not theirs any more.
          if (isSelf && wanted !== 'admin') void navigate({ to: '/' });
        },
        onError: (error) => {
          const message = messageOf(error, 'Failed to change the role');
          setProblem(message);
          notify.error(message);
        },
      },
    );
  };

  return (
    <div className="flex items-center justify-between gap-3">
      <label htmlFor={selectId} className="text-sm font-medium text-slate-600">
        Role
      </label>
      <select
        id={selectId}
        aria-label={`Role of ${member.name}`}
        value={member.role}
        disabled={change.isPending}
        onChange={(event) => {
          setProblem(null);
          setWanted(event.target.value as Role);
        }}
        className={cx(
          'h-8 min-w-36 rounded-lg border border-slate-200 bg-white pr-8 pl-3 text-sm text-slate-800 shadow-xs',
          'focus:border-brand-500 focus:ring-2 focus:ring-brand-500/20 focus:outline-none',
        )}
      >
        {roles.map((role) => (
          <option key={role} value={role}>
            {roleDisplayNames[role]}
          </option>
        ))}
      </select>
      <ConfirmModal
        isOpen={wanted !== null}
        title="Change Role"
        confirmLabel="Change Role"
        isBusy={change.isPending}
        onClose={close}
        onConfirm={confirm}
      >
        {wanted ? (
          <div className="space-y-3">
            <p>
              Make {isSelf ? 'yourself' : <strong className="text-slate-900">{member.name}</strong>} {article(wanted)}{' '}
              {roleDisplayNames[wanted]} instead of {article(member.role)} {roleDisplayNames[member.role]}?
            </p>
            <p>
              {wanted === 'auditor' ? 'Auditors read every bug, dashboard and report, and change nothing. ' : ''}
              {isSelf
                ? 'Your other sessions end; this one goes on with the new role.'
                : 'They are signed out everywhere and sign in again with the new role.'}
            </p>
            {problem ? (
              <p role="alert" className="rounded-lg border border-rose-200 bg-rose-50 px-3 py-2 text-rose-700">
                {problem}
              </p>
            ) : null}
          </div>
        ) : null}
      </ConfirmModal>
    </div>
  );
}
