import { useQuery } from '@tanstack/react-query';
import { Plus, Ticket } from 'lucide-react';
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
import {
  type InviteCode,
  inviteCodesQuery,
  type MintedInviteCode,
  useMintInviteCode,
  useRevokeInviteCode,
} from './team-api';

const creatorOf = (code: InviteCode) => code.createdBy?.name ?? 'Unknown';

/**
 * Admin invite codes: the live ones (who made each, when, until when; never the code,
 * which the server keeps only as a hash), a new one shown this once, and revoke.
 */
export function InviteCodes() {
  const { data: codes, isPending, error } = useQuery(inviteCodesQuery());
  useErrorToast(error, 'Failed to load invite codes', { preferServer: true });
  const mint = useMintInviteCode();
  const revoke = useRevokeInviteCode();
  const [minted, setMinted] = useState<MintedInviteCode | null>(null);
  const [toRevoke, setToRevoke] = useState<InviteCode | null>(null);

  const mintCode = () =>
    mint.mutate(undefined, {
      onSuccess: setMinted,
      onError: (failure) => notify.error(messageOf(failure, 'Failed to create an invite code')),
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
          subtitle="Each code lets one person sign up as an admin, once, within 24 hours."
          action={
            <Button size="sm" icon={<Plus className="size-4" />} isLoading={mint.isPending} onClick={mintCode}>
              New invite code
            </Button>
          }
        />
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
                <dl className="grid min-w-0 flex-1 grid-cols-1 gap-x-6 gap-y-1 text-sm sm:grid-cols-3">
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
                  aria-label={`Revoke invite code created by ${creatorOf(code)} on ${formatDateTime(code.createdAt)}`}
                >
                  Revoke
                </Button>
              </li>
            ))}
          </ul>
        )}
      </Card>

      <Modal
        isOpen={minted !== null}
        onClose={() => setMinted(null)}
        title="New invite code"
        description="Give it to the person who is to sign up as an admin."
        size="sm"
        footer={<Button onClick={() => setMinted(null)}>Done</Button>}
      >
        {minted ? (
          <div className="space-y-4">
            <CopyField
              label="Invite code"
              value={minted.code}
              copiedMessage="Invite code copied"
              variant="code"
              hasFocus
            />
            <p role="note" className="rounded-lg border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-900">
              This code will not be shown again: copy it now.
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
