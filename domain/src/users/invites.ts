import { z } from 'zod';
import { ForbiddenError, NotFoundError } from '../core/errors.js';
import { type Actor, assertNever, type Command, type Decider, type Event } from '../core/event.js';
import { type InvitedRole, invitedRoles } from './user-vocabulary.js';

/**
 * Admin invite codes as facts (api.md "People"): an admin minted one, an admin revoked
 * one. The code itself is never in an event (the write side keeps only its hash); the
 * events say who made or withdrew which code, and when it was to expire. One stream per
 * code, `invite-{id}`.
 */
export const inviteCodeMintedData = z.object({
  codeId: z.string().min(1),
  expiresAt: z.string().min(1),
  /** Whom the code signs up: an admin (absent on older events) or an invited tester or developer. */
  role: z.enum(['admin', ...invitedRoles]).optional(),
});
export type InviteCodeMintedData = z.infer<typeof inviteCodeMintedData>;
export const inviteCodeRevokedData = z.object({ codeId: z.string().min(1) });
export type InviteCodeRevokedData = z.infer<typeof inviteCodeRevokedData>;

export type InviteCodeMinted = Event<'InviteCodeMinted', InviteCodeMintedData>;
export type InviteCodeRevoked = Event<'InviteCodeRevoked', InviteCodeRevokedData>;
export type InviteEvent = InviteCodeMinted | InviteCodeRevoked;

export type InviteState =
  | Readonly<{ status: 'empty' }>
  | Readonly<{ status: 'minted' | 'revoked'; codeId: string; expiresAt: string }>;

export type MintInviteCode = Command<'MintInviteCode', { codeId: string; expiresAt: string; role?: InvitedRole }>;
export type RevokeInviteCode = Command<'RevokeInviteCode', { codeId: string }>;
export type InviteCommand = MintInviteCode | RevokeInviteCode;

export const inviteMessages = {
  notFound: 'Invite code not found',
  adminsOnly: 'Only an admin can manage invite codes',
} as const;

function evolveInvite(state: InviteState, event: InviteEvent): InviteState {
  switch (event.type) {
    case 'InviteCodeMinted':
      return { status: 'minted', codeId: event.data.codeId, expiresAt: event.data.expiresAt };
    case 'InviteCodeRevoked':
      return state.status === 'empty' ? state : { ...state, status: 'revoked' };
    default:
      return state;
  }
}

function requireAdmin(actor: Actor | null): void {
  if (actor?.role !== 'admin') throw new ForbiddenError(inviteMessages.adminsOnly);
}

function decideInvite(command: InviteCommand, state: InviteState): InviteEvent[] {
  requireAdmin(command.metadata.actor);
  switch (command.type) {
    case 'MintInviteCode':
      if (state.status !== 'empty') return [];
      return [
        {
          type: 'InviteCodeMinted',
          data: {
            codeId: command.data.codeId,
            expiresAt: command.data.expiresAt,
            ...(command.data.role ? { role: command.data.role } : {}),
          },
        },
      ];
    case 'RevokeInviteCode':
      if (state.status === 'empty') throw new NotFoundError(inviteMessages.notFound);
      if (state.status === 'revoked') return [];
      return [{ type: 'InviteCodeRevoked', data: { codeId: state.codeId } }];
    default:
      return assertNever(command);
  }
}

export const inviteDecider: Decider<InviteState, InviteCommand, InviteEvent> = {
  initialState: () => ({ status: 'empty' }),
  evolve: evolveInvite,
  decide: decideInvite,
};
