import { KeyRound, ShieldOff, UserCheck, UserX } from 'lucide-react';
import { useState } from 'react';
import { ConfirmModal } from '../../../components/confirm-modal';
import { CopyField } from '../../../components/copy-field';
import { Button } from '../../../components/ui/button';
import { Modal } from '../../../components/ui/modal';
import { messageOf } from '../../../lib/api';
import { formatDateTime } from '../../../lib/format';
import { notify } from '../../../lib/notify';
import type { TeamMember } from '../../../lib/types';
import { type ResetLink, useCreateResetLink, useDeactivateUser, useReactivateUser, useResetMfa } from './team-api';

/**
 * A member's account actions on the Team Members page: a password reset link to pass on,
 * and deactivate (after a confirm: their sessions end at once) or reactivate. The server
 * has the last word (the last admin stays); its message shows in a toast.
 */
export function MemberActions({ member, isSelf }: { member: TeamMember; isSelf: boolean }) {
  const deactivate = useDeactivateUser();
  const reactivate = useReactivateUser();
  const resetLink = useCreateResetLink();
  const resetMfa = useResetMfa();
  const [isConfirmingMfa, setConfirmingMfa] = useState(false);
  const [isConfirming, setConfirming] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [link, setLink] = useState<ResetLink | null>(null);

  const closeConfirm = () => {
    setConfirming(false);
    setProblem(null);
  };
  const confirmDeactivate = () =>
    deactivate.mutate(member._id, {
      onSuccess: () => {
        notify.success(`${member.name} is deactivated`);
        closeConfirm();
      },
      onError: (error) => {
        const message = messageOf(error, `Failed to deactivate ${member.name}`);
        setProblem(message);
        notify.error(message);
      },
    });
  const doReactivate = () =>
    reactivate.mutate(member._id, {
      onSuccess: () => notify.success(`${member.name} can sign in again`),
      onError: (error) => notify.error(messageOf(error, `Failed to reactivate ${member.name}`)),
    });
  const confirmResetMfa = () =>
    resetMfa.mutate(member._id, {
      onSuccess: () => {
        notify.success(`Two-factor authentication is off for ${member.name}`);
        setConfirmingMfa(false);
      },
      onError: (error) =>
        notify.error(messageOf(error, `Failed to reset two-factor authentication for ${member.name}`)),
    });
  const makeResetLink = () =>
    resetLink.mutate(member._id, {
      onSuccess: setLink,
      onError: (error) => notify.error(messageOf(error, 'Failed to create a reset link')),
    });

  return (
    <div className="flex flex-wrap items-center justify-end gap-2">
      <Button
        variant="secondary"
        size="sm"
        icon={<KeyRound className="size-4" />}
        isLoading={resetLink.isPending}
        onClick={makeResetLink}
        aria-label={`Reset link for ${member.name}`}
      >
        Reset link
      </Button>
      {isSelf ? null : (
        <Button
          variant="ghost"
          size="sm"
          icon={<ShieldOff className="size-4" />}
          onClick={() => setConfirmingMfa(true)}
          aria-label={`Reset 2FA for ${member.name}`}
        >
          Reset 2FA
        </Button>
      )}
      {member.deactivated ? (
        <Button
          variant="outline"
          size="sm"
          icon={<UserCheck className="size-4" />}
          isLoading={reactivate.isPending}
          onClick={doReactivate}
          aria-label={`Reactivate ${member.name}`}
        >
          Reactivate
        </Button>
      ) : isSelf ? null : (
        <Button
          variant="ghost"
          size="sm"
          icon={<UserX className="size-4" />}
          onClick={() => setConfirming(true)}
          aria-label={`Deactivate ${member.name}`}
        >
          Deactivate
        </Button>
      )}

      <ConfirmModal
        isOpen={isConfirming}
        title="Deactivate Member"
        confirmLabel="Deactivate"
        isBusy={deactivate.isPending}
        onClose={closeConfirm}
        onConfirm={confirmDeactivate}
      >
        <div className="space-y-3">
          <p>
            Deactivate <strong className="text-slate-900">{member.name}</strong>?
          </p>
          <p>
            They are signed out everywhere at once and cannot sign in until an admin reactivates them. Their bugs,
            comments and history stay as they are.
          </p>
          {problem ? (
            <p role="alert" className="rounded-lg border border-rose-200 bg-rose-50 px-3 py-2 text-rose-700">
              {problem}
            </p>
          ) : null}
        </div>
      </ConfirmModal>

      <ConfirmModal
        isOpen={isConfirmingMfa}
        title="Reset Two-Factor Authentication"
        confirmLabel="Reset 2FA"
        isBusy={resetMfa.isPending}
        onClose={() => setConfirmingMfa(false)}
        onConfirm={confirmResetMfa}
      >
        <div className="space-y-3">
          <p>
            Turn off two-factor authentication for <strong className="text-slate-900">{member.name}</strong>?
          </p>
          <p>
            Their authenticator and recovery codes stop working and their password alone signs them in. Do this only
            when you are sure it is them asking. They are told by notification and email.
          </p>
        </div>
      </ConfirmModal>

      <Modal
        isOpen={link !== null}
        onClose={() => setLink(null)}
        title={`Reset link for ${member.name}`}
        description="Send it to them privately: anyone with the link can set their password."
        footer={<Button onClick={() => setLink(null)}>Done</Button>}
      >
        {link ? (
          <div className="space-y-4">
            <CopyField label="Reset link" value={link.url} copiedMessage="Reset link copied" hasFocus />
            <p className="text-sm text-slate-600">
              The link works once and expires on{' '}
              <time dateTime={link.expiresAt} className="font-medium text-slate-900">
                {formatDateTime(link.expiresAt)}
              </time>
              .{member.deactivated ? ' They cannot sign in until reactivated.' : ''}
            </p>
          </div>
        ) : null}
      </Modal>
    </div>
  );
}
