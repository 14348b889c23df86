import { useQuery } from '@tanstack/react-query';
import { Plus, Ticket, UserPlus } from 'lucide-react';
import { useState } from 'react';
import { ConfirmModal } from '../../../components/confirm-modal';
import { CopyField } from '../../../components/copy-field';
import { Button } from '../../../components/ui/button';
import { Card, CardHeader } from '../../../components/ui/card';
import { EmptyState } from '../../../components/ui/empty-state';
import { Modal } from '../../../components/ui/modal';
import { SkeletonRows } from '../../../components/ui/skeleton';
import { messageOf } from '../../../lib/api';
import { formatDateTime } from '../../../lib/format';
import { notify } from '../../../lib/notify';
import { useErrorToast } from '../../../lib/use-error-toast';
import { SignupPolicy } from './signup-policy';
import {
  type CodeRole,
  type InviteCode,
  inviteCodesQuery,
  type MintedInviteCode,
  useMintInviteCode,
  useRevokeInviteCode,
} from './team-api';

const creatorOf = (code: InviteCode) => code.createdBy?.name ?? 'Unknown';
const roleNames: Record<CodeRole, string> = { admin: 'Admin', tester: 'Tester', developer: 'Developer' };

/**
 * Who may sign up, and invite codes: the live ones (for whom, who made each, when, until
 * when; never the code, which the server keeps only as a hash), a new admin code or an
 * invitation for a tester or developer shown this once with its link, and revoke.
 */
export function InviteCodes() {
  const { data: codes, isPending, error } = useQuery(inviteCodesQuery());
  useErrorToast(error, 'Failed to load invite codes', { preferServer: true });
  const mint = useMintInviteCode();
  const revoke = useRevokeInviteCode();
  const [minted, setMinted] = useState<MintedInviteCode | null>(null);
  const [isInviting, setInviting] = useState(false);
  const [inviteRole, setInviteRole] = useState<'tester' | 'developer'>('tester');
  const [toRevoke, setToRevoke] = useState<InviteCode | null>(null);

  const mintCode = (role?: 'tester' | 'developer') =>
    mint.mutate(role, {
      onSuccess: (answer) => {
        setInviting(false);
        setMinted(answer);
      },
      onError: (failure) =>
        notify.error(messageOf(failure, role ? 'Failed to create an invitation' : 'Failed to create an invite code')),
    });
  const confirmRevoke = () => {
    if (!toRevoke) return;
    revoke.mutate(toRevoke._id, {
      onSuccess: () => {
        notify.success('Invite code revoked');
        setToRevoke(null);
      },
      onError: (failure) => notify.error(messageOf(failure, 'Failed to revoke the invite code')),
    });
  };

  return (
    <section aria-labelledby="invite-codes-title" className="mt-8">
      <Card>
        <CardHeader
          title={<span id="invite-codes-title">Invite codes</span>}
          subtitle="Each code lets one person sign up, once: an admin within 24 hours, an invited tester or developer within 7 days."
          action={
            <div className="flex flex-wrap gap-2">
              <Button
                size="sm"
                variant="secondary"
                icon={<UserPlus className="size-4" />}
                onClick={() => setInviting(true)}
              >
                Invite someone
              </Button>
              <Button
                size="sm"
                icon={<Plus className="size-4" />}
                isLoading={mint.isPending && !isInviting}
                onClick={() => mintCode()}
              >
                New invite code
              </Button>
            </div>
          }
        />
        <SignupPolicy />
        {isPending ? (
          <SkeletonRows rows={2} />
        ) : error ? (
          <p className="px-5 py-6 text-sm text-slate-600">{messageOf(error, 'Failed to load invite codes')}</p>
        ) : !codes || codes.length === 0 ? (
          <EmptyState icon={<Ticket className="size-6" />} title="No live invite codes" />
        ) : (
          <ul aria-label="Live invite codes" className="divide-y divide-slate-100">
            {codes.map((code) => (
              <li key={code._id} className="flex flex-wrap items-center justify-between gap-x-6 gap-y-2 px-5 py-3">
                <dl className="grid min-w-0 flex-1 grid-cols-1 gap-x-6 gap-y-1 text-sm sm:grid-cols-4">
                  <div>
                    <dt className="text-xs text-slate-500">For</dt>
                    <dd className="font-medium text-slate-900">{roleNames[code.role ?? 'admin']}</dd>
                  </div>
                  <div className="min-w-0">
                    <dt className="text-xs text-slate-500">Created by</dt>
                    <dd className="truncate font-medium text-slate-900">{creatorOf(code)}</dd>
                  </div>
                  <div>
                    <dt className="text-xs text-slate-500">Created</dt>
                    <dd className="text-slate-700">
                      <time dateTime={code.createdAt}>{formatDateTime(code.createdAt)}</time>
                    </dd>
                  </div>
                  <div>
                    <dt className="text-xs text-slate-500">Expires</dt>
                    <dd className="text-slate-700">
                      <time dateTime={code.expiresAt}>{formatDateTime(code.expiresAt)}</time>
                    </dd>
                  </div>
                </dl>
                <Button
                  variant="ghost"
                  size="sm"
                  onClick={() => setToRevoke(code)}
                  aria-label={`Revoke ${code.role && code.role !== 'admin' ? `${code.role} invitation` : 'invite code'} created by ${creatorOf(code)} on ${formatDateTime(code.createdAt)}`}
                >
                  Revoke
                </Button>
              </li>
            ))}
          </ul>
        )}
      </Card>

      <Modal
        isOpen={isInviting}
        onClose={() => setInviting(false)}
        title="Invite someone"
        description="Make a link and a code that let one person sign up in the role you choose."
        size="sm"
        footer={
          <>
            <Button variant="secondary" onClick={() => setInviting(false)}>
              Cancel
            </Button>
            <Button isLoading={mint.isPending} onClick={() => mintCode(inviteRole)}>
              Create invitation
            </Button>
          </>
        }
      >
        <fieldset>
          <legend className="text-sm font-medium text-slate-700">Sign up as</legend>
          <div className="mt-2 flex gap-4">
            {(['tester', 'developer'] as const).map((role) => (
              <label key={role} className="flex cursor-pointer items-center gap-2 text-sm text-slate-800">
                <input
                  type="radio"
                  name="invite-role"
                  className="size-4 accent-brand-600"
                  checked={inviteRole === role}
                  onChange={() => setInviteRole(role)}
                />
                {roleNames[role]}
              </label>
            ))}
          </div>
        </fieldset>
      </Modal>

      <Modal
        isOpen={minted !== null}
        onClose={() => setMinted(null)}
        title={minted?.role ? 'New invitation' : 'New invite code'}
        description={
          minted?.role
            ? `Send the link (or the code) to the person who is to sign up as a ${minted.role}.`
            : 'Give it to the person who is to sign up as an admin.'
        }
        size="sm"
        footer={<Button onClick={() => setMinted(null)}>Done</Button>}
      >
        {minted ? (
          <div className="space-y-4">
            {minted.url ? (
              <CopyField label="Invitation link" value={minted.url} copiedMessage="Invitation link copied" hasFocus />
            ) : null}
            <CopyField
              label="Invite code"
              value={minted.code}
              copiedMessage="Invite code copied"
              variant="code"
              hasFocus={!minted.url}
            />
            <p role="note" className="rounded-lg border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-900">
              {minted.url ? 'This link and code' : 'This code'} will not be shown again: copy it now.
            </p>
            <p className="text-sm text-slate-600">
              {minted.singleUse ? 'It works once and expires' : 'It expires'} on{' '}
              <time dateTime={minted.expiresAt} className="font-medium text-slate-900">
                {formatDateTime(minted.expiresAt)}
              </time>
              .
            </p>
          </div>
        ) : null}
      </Modal>

      <ConfirmModal
        isOpen={toRevoke !== null}
        title="Revoke Invite Code"
        confirmLabel="Revoke"
        isBusy={revoke.isPending}
        onClose={() => setToRevoke(null)}
        onConfirm={confirmRevoke}
      >
        {toRevoke ? (
          <p>
            Revoke the code {creatorOf(toRevoke)} created on {formatDateTime(toRevoke.createdAt)}? Nobody can sign up
            with it any more.
          </p>
        ) : null}
      </ConfirmModal>
    </section>
  );
}
