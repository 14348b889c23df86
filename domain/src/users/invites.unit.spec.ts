import { deciderSpec } from '@bugtrail/testing';
import { describe, it } from 'vitest';
import type { Actor } from '../core/event.js';
import { type InviteCommand, type InviteEvent, inviteDecider, inviteMessages } from './invites.js';

const { given } = deciderSpec(inviteDecider);
const now = '2026-03-01T09:00:00.000Z';
const admin: Actor = { id: 'admin-1', role: 'admin' };
const minted: InviteEvent = { type: 'InviteCodeMinted', data: { codeId: 'c1', expiresAt: '2026-03-02T09:00:00.000Z' } };
const mint = (actor: Actor | null = admin): InviteCommand => ({
  type: 'MintInviteCode',
  data: { codeId: 'c1', expiresAt: '2026-03-02T09:00:00.000Z' },
  metadata: { actor, now },
});
const revoke = (actor: Actor | null = admin): InviteCommand => ({
  type: 'RevokeInviteCode',
  data: { codeId: 'c1' },
  metadata: { actor, now },
});

describe('invite codes', () => {
  it('mints once and revokes once', () => {
    given().when(mint()).then([minted]);
    given(minted).when(mint()).thenNothing();
    given(minted)
      .when(revoke())
      .then([{ type: 'InviteCodeRevoked', data: { codeId: 'c1' } }]);
    given(minted, { type: 'InviteCodeRevoked', data: { codeId: 'c1' } })
      .when(revoke())
      .thenNothing();
  });

  it('refuses a code never minted, and anyone but an admin', () => {
    given().when(revoke()).thenThrows('not_found', inviteMessages.notFound);
    for (const actor of [{ id: 't1', role: 'tester' } as Actor, { id: 'a1', role: 'auditor' } as Actor, null]) {
      given().when(mint(actor)).thenThrows('forbidden', inviteMessages.adminsOnly);
      given(minted).when(revoke(actor)).thenThrows('forbidden', inviteMessages.adminsOnly);
    }
  });
});
