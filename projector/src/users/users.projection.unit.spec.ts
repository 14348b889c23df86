import { projectionSpec, recorded } from '@bugtrail/testing/projections';
import { describe, expect, it } from 'vitest';
import { usersProjection } from './users.projection.js';

const { given } = projectionSpec(usersProjection);
const registered = (userId: string, at = '2026-11-29T09:00:00.000Z') =>
  recorded(
    'UserRegistered',
    { userId, name: 'Dana Developer', email: 'dana@example.test', role: 'developer', profileImageURL: null },
    { occurredAt: at },
  );
const at = (occurredAt: string) => ({ occurredAt });

describe('people, one handler per event', () => {
  it('UserRegistered: the whole row, active, created and updated at the registration', () => {
    given()
      .when(registered('u1'))
      .then(
        new Map([
          [
            'u1',
            {
              registered: {
                id: 'u1',
                name: 'Dana Developer',
                email: 'dana@example.test',
                role: 'developer',
                profile_image_url: null,
                deactivated: false,
                created_at: '2026-11-29T09:00:00.000Z',
                updated_at: '2026-11-29T09:00:00.000Z',
              },
              patches: [],
            },
          ],
        ]),
      );
  });

  it('ProfileUpdated: only the fields it names; a null image removes the image', () => {
    const changes = given()
      .when(
        recorded('ProfileUpdated', { userId: 'u1', name: 'Dana D.' }, at('2026-11-29T10:00:00.000Z')),
        recorded('ProfileUpdated', { userId: 'u1', profileImageURL: null }, at('2026-11-29T11:00:00.000Z')),
      )
      .changes();
    expect(changes.get('u1')).toEqual({
      registered: null,
      patches: [
        { name: 'Dana D.', updated_at: '2026-11-29T10:00:00.000Z' },
        { profile_image_url: null, updated_at: '2026-11-29T11:00:00.000Z' },
      ],
    });
  });

  it('UserRoleChanged, UserDeactivated, UserReactivated, NotificationPreferencesChanged: in event order, after the registration', () => {
    const changes = given(registered('u1'))
      .when(
        recorded('UserRoleChanged', { userId: 'u1', from: 'developer', to: 'admin' }, at('2026-11-29T10:00:00.000Z')),
        recorded('UserDeactivated', { userId: 'u1' }, at('2026-11-29T11:00:00.000Z')),
        recorded('UserReactivated', { userId: 'u1' }, at('2026-11-29T12:00:00.000Z')),
        recorded('NotificationPreferencesChanged', { userId: 'u1', email: 'off' }, at('2026-11-29T13:00:00.000Z')),
      )
      .changes();
    expect(changes.get('u1')?.patches).toEqual([
      { role: 'admin', updated_at: '2026-11-29T10:00:00.000Z' },
      { deactivated: true, updated_at: '2026-11-29T11:00:00.000Z' },
      { deactivated: false, updated_at: '2026-11-29T12:00:00.000Z' },
      { email_preference: 'off', updated_at: '2026-11-29T13:00:00.000Z' },
    ]);
    expect(changes.get('u1')?.registered?.role).toBe('developer');
  });

  it('reads nothing from events of other types', () => {
    expect(
      given()
        .when(recorded('PasswordChanged', { userId: 'u1' }))
        .changes().size,
    ).toBe(0);
  });
});
