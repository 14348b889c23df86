import { deciderSpec } from '@bugtrail/testing';
import { describe, it } from 'vitest';
import type { Actor } from '../core/event.js';
import { type SetSignupPolicy, signupPolicyDecider } from './signup-policy.js';
import { signupMessages } from './user-vocabulary.js';

const { given } = deciderSpec(signupPolicyDecider);
const admin: Actor = { id: 'admin-1', role: 'admin' };
const set = (mode: 'open' | 'invitation', actor: Actor | null = admin): SetSignupPolicy => ({
  type: 'SetSignupPolicy',
  data: { mode },
  metadata: { actor, now: '2026-11-29T08:00:00.000Z' },
});
const wasSet = (mode: 'open' | 'invitation') => ({ type: 'SignupPolicySet' as const, data: { mode } });

describe('SetSignupPolicy', () => {
  it('records an admin’s choice of invitation-only sign-up', () => {
    given()
      .when(set('invitation'))
      .then([wasSet('invitation')]);
  });

  it('records going back to open', () => {
    given(wasSet('invitation'))
      .when(set('open'))
      .then([wasSet('open')]);
  });

  it('records nothing when the choice is already in force (open is the default)', () => {
    given().when(set('open')).thenNothing();
    given(wasSet('invitation')).when(set('invitation')).thenNothing();
  });

  it('refuses anyone but an admin', () => {
    for (const role of ['tester', 'developer', 'auditor'] as const) {
      given()
        .when(set('invitation', { id: 'someone', role }))
        .thenThrows('forbidden', signupMessages.adminsOnly);
    }
    given().when(set('invitation', null)).thenThrows('forbidden', signupMessages.adminsOnly);
  });
});
