import { projectionSpec, recorded } from '@bugtrail/testing/projections';
import { describe, expect, it } from 'vitest';
import { invitesProjection } from './invites.projection.js';

const { given } = projectionSpec(invitesProjection);
const minted = (codeId: string, role?: 'tester' | 'developer') =>
  recorded('InviteCodeMinted', { codeId, expiresAt: '2026-12-06T12:00:00.000Z', ...(role ? { role } : {}) });
const registered = (inviteCodeId?: string) =>
  recorded(
    'UserRegistered',
    {
      userId: 'u9',
      name: 'Nina Tester',
      email: 'nina@example.test',
      role: 'tester',
      profileImageURL: null,
      ...(inviteCodeId ? { inviteCodeId } : {}),
    },
    { occurredAt: '2026-11-30T09:00:00.000Z' },
  );

describe('invite codes and the signup policy, one handler per event', () => {
  it('InviteCodeMinted: who made it, when, until when, and whom it signs up (admin when older events say nothing)', () => {
    const event = minted('c1');
    given()
      .when(event, minted('c2', 'developer'))
      .then({
        codes: [
          {
            kind: 'mint',
            row: {
              id: 'c1',
              created_by: 'actor-1',
              created_at: event.metadata.occurredAt,
              expires_at: '2026-12-06T12:00:00.000Z',
              role: 'admin',
            },
          },
          expect.objectContaining({ kind: 'mint', row: expect.objectContaining({ id: 'c2', role: 'developer' }) }),
        ],
        policy: null,
      });
  });

  it('InviteCodeRevoked: marked revoked when it happened', () => {
    const revoke = recorded('InviteCodeRevoked', { codeId: 'c1' }, { occurredAt: '2026-11-29T15:00:00.000Z' });
    expect(given(minted('c1')).when(revoke).changes().codes[1]).toEqual({
      kind: 'revoke',
      id: 'c1',
      at: '2026-11-29T15:00:00.000Z',
    });
  });

  it('UserRegistered: uses up the code it names; a signup without one changes no code', () => {
    expect(given().when(registered('c1')).changes().codes).toEqual([
      { kind: 'use', id: 'c1', at: '2026-11-30T09:00:00.000Z' },
    ]);
    expect(given().when(registered()).changes()).toEqual({ codes: [], policy: null });
  });

  it('SignupPolicySet: the batch’s last word is the policy', () => {
    const changes = given(recorded('SignupPolicySet', { mode: 'invitation' }, { actorId: 'admin-1' }))
      .when(
        recorded('SignupPolicySet', { mode: 'open' }, { actorId: 'admin-2', occurredAt: '2026-11-29T16:00:00.000Z' }),
      )
      .changes();
    expect(changes.policy).toEqual({ mode: 'open', updated_by: 'admin-2', updated_at: '2026-11-29T16:00:00.000Z' });
    expect(changes.codes).toEqual([]);
  });
});
