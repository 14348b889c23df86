import { deciderSpec } from '@bugtrail/testing';
import { describe, expect, it } from 'vitest';
import { bugPermissions } from '../bugs/permissions.js';
import type { Actor, Role } from '../core/event.js';
import { type ChangeRole, userDecider } from './decide.js';
import { rolePermissions } from './permissions.js';
import type { UserEvent } from './user.js';
import { userMessages } from './user-vocabulary.js';
import { resolveRole, resolveSignupRole } from './validation.js';

const { given } = deciderSpec(userDecider);
const now = '2026-03-01T09:00:00.000Z';
const admin: Actor = { id: 'admin-1', role: 'admin' };
const auditor: Actor = { id: 'aud-1', role: 'auditor' };

const registered = (userId: string, role: Role): UserEvent => ({
  type: 'UserRegistered',
  data: { userId, name: `User ${userId}`, email: `${userId}@example.com`, role, profileImageURL: null },
});
const changeRole = (userId: string, role: string, adminIds: string[], actor: Actor | null = admin): ChangeRole => ({
  type: 'ChangeRole',
  data: { userId, role, adminIds },
  metadata: { actor, now },
});

describe('ChangeRole', () => {
  describe('when the user is a tester', () => {
    it('makes them an auditor', () => {
      given(registered('u1', 'tester'))
        .when(changeRole('u1', 'auditor', ['admin-1']))
        .then([{ type: 'UserRoleChanged', data: { userId: 'u1', from: 'tester', to: 'auditor' } }]);
    });
    it('accepts the role in any case, and the same role changes nothing', () => {
      given(registered('u1', 'tester'))
        .when(changeRole('u1', 'Developer', ['admin-1']))
        .then([{ type: 'UserRoleChanged', data: { userId: 'u1', from: 'tester', to: 'developer' } }]);
      given(registered('u1', 'tester'))
        .when(changeRole('u1', 'tester', ['admin-1']))
        .thenNothing();
    });
    it('refuses a role that does not exist', () => {
      for (const role of ['owner', '', ' ']) {
        given(registered('u1', 'tester'))
          .when(changeRole('u1', role, ['admin-1']))
          .thenThrows('validation', userMessages.roleInvalid, [{ field: 'role', message: userMessages.roleInvalid }]);
      }
    });
    it('is for admins only', () => {
      for (const actor of [auditor, { id: 'u1', role: 'tester' } as const, null]) {
        given(registered('u1', 'tester'))
          .when(changeRole('u1', 'admin', ['admin-1'], actor))
          .thenThrows('forbidden', userMessages.cannotChangeRoles);
      }
    });
    it('refuses an admin token whose holder is no longer an admin (a demotion in flight)', () => {
      given(registered('u1', 'tester'))
        .when(changeRole('u1', 'auditor', ['admin-2']))
        .thenThrows('forbidden', userMessages.cannotChangeRoles);
    });
  });

  describe('when the user is an admin', () => {
    it('lets another admin remain', () => {
      given(registered('admin-1', 'admin'))
        .when(changeRole('admin-1', 'auditor', ['admin-1', 'admin-2']))
        .then([{ type: 'UserRoleChanged', data: { userId: 'admin-1', from: 'admin', to: 'auditor' } }]);
    });
    it('refuses to leave no admin', () => {
      given(registered('admin-1', 'admin'))
        .when(changeRole('admin-1', 'tester', ['admin-1']))
        .thenThrows('validation', userMessages.lastAdmin, [{ field: 'role', message: userMessages.lastAdmin }]);
    });
  });

  it('is 404 for a user that does not exist', () => {
    given()
      .when(changeRole('nobody', 'auditor', ['admin-1']))
      .thenThrows('not_found', 'User not found');
  });

  it('the folded state carries the new role', () => {
    const { state } = given(registered('u1', 'tester'), {
      type: 'UserRoleChanged',
      data: { userId: 'u1', from: 'tester', to: 'auditor' },
    });
    expect(state).toMatchObject({ status: 'registered', role: 'auditor' });
  });
});

describe('the auditor role', () => {
  it('reads everything, changes nothing, is never assignable', () => {
    expect(rolePermissions.readsEverything(auditor)).toBe(true);
    expect(rolePermissions.isReadOnly(auditor)).toBe(true);
    expect(rolePermissions.isAssignable('auditor')).toBe(false);
    expect(rolePermissions.isReadOnly(admin)).toBe(false);
    const deleted = { reporterId: 't1', assigneeIds: ['d1'], deleted: true };
    const live = { ...deleted, deleted: false };
    expect(bugPermissions.canView(auditor, live)).toBe(true);
    expect(bugPermissions.canViewHistory(auditor, deleted)).toBe(true);
    expect(bugPermissions.canReport(auditor)).toBe(false);
    expect(bugPermissions.canEdit(auditor, live)).toBe(false);
    expect(bugPermissions.canWorkOn(auditor, live)).toBe(false);
  });

  it('is a known role but never offered at signup', () => {
    expect(resolveRole('auditor')).toBe('auditor');
    expect(resolveSignupRole('auditor')).toBe('invalid');
    expect(resolveSignupRole(undefined)).toBe('tester');
    expect(resolveSignupRole('Admin')).toBe('admin');
  });

  it('may still update its own profile', () => {
    given(registered('aud-1', 'auditor'))
      .when({ type: 'UpdateProfile', data: { userId: 'aud-1', name: 'Audra' }, metadata: { actor: auditor, now } })
      .then([{ type: 'ProfileUpdated', data: { userId: 'aud-1', name: 'Audra' } }]);
  });
});

describe('DeactivateUser and ReactivateUser', () => {
  const deactivate = (userId: string, adminIds: string[], actor: Actor | null = admin) =>
    ({ type: 'DeactivateUser', data: { userId, adminIds }, metadata: { actor, now } }) as const;
  const reactivate = (userId: string, actor: Actor | null = admin) =>
    ({ type: 'ReactivateUser', data: { userId }, metadata: { actor, now } }) as const;
  const deactivated: UserEvent = { type: 'UserDeactivated', data: { userId: 'u1' } };

  it('deactivates once, and reactivates once', () => {
    given(registered('u1', 'developer'))
      .when(deactivate('u1', ['admin-1']))
      .then([deactivated]);
    given(registered('u1', 'developer'), deactivated)
      .when(deactivate('u1', ['admin-1']))
      .thenNothing();
    given(registered('u1', 'developer'), deactivated)
      .when(reactivate('u1'))
      .then([{ type: 'UserReactivated', data: { userId: 'u1' } }]);
    given(registered('u1', 'developer')).when(reactivate('u1')).thenNothing();
  });

  it('keeps the last active admin, and lets an admin go while another remains', () => {
    given(registered('admin-1', 'admin'))
      .when(deactivate('admin-1', ['admin-1']))
      .thenThrows('conflict', userMessages.lastAdmin);
    given(registered('admin-1', 'admin'))
      .when(deactivate('admin-1', ['admin-1', 'admin-2']))
      .then([{ type: 'UserDeactivated', data: { userId: 'admin-1' } }]);
  });

  it('refuses anyone but a current admin, and an unknown user', () => {
    for (const actor of [auditor, { id: 't1', role: 'tester' } as Actor, null]) {
      given(registered('u1', 'developer'))
        .when(deactivate('u1', ['admin-1'], actor))
        .thenThrows('forbidden', userMessages.cannotManageUsers);
    }
    // An admin token whose owner was demoted meanwhile.
    given(registered('u1', 'developer'))
      .when(deactivate('u1', ['admin-2']))
      .thenThrows('forbidden', userMessages.cannotManageUsers);
    given()
      .when(deactivate('u1', ['admin-1']))
      .thenThrows('not_found', 'User not found');
  });
});

describe('RequestPasswordReset', () => {
  const request = (byEmail: boolean, actor: Actor | null) =>
    ({
      type: 'RequestPasswordReset',
      data: { userId: 'u1', expiresAt: '2026-03-02T09:00:00.000Z', byEmail },
      metadata: { actor, now },
    }) as const;

  it('records that a link exists (never the token), by an admin or by mail', () => {
    const event: UserEvent = {
      type: 'PasswordResetRequested',
      data: { userId: 'u1', expiresAt: '2026-03-02T09:00:00.000Z', byEmail: false },
    };
    given(registered('u1', 'tester')).when(request(false, admin)).then([event]);
    given(registered('u1', 'tester'))
      .when(request(true, null))
      .then([{ ...event, data: { ...event.data, byEmail: true } }] as UserEvent[]);
  });

  it('refuses a non-admin link and a deactivated user', () => {
    given(registered('u1', 'tester'))
      .when(request(false, { id: 'u2', role: 'developer' }))
      .thenThrows('forbidden', userMessages.cannotManageUsers);
    given(registered('u1', 'tester'), { type: 'UserDeactivated', data: { userId: 'u1' } })
      .when(request(false, admin))
      .thenThrows('conflict', userMessages.deactivated);
  });
});
