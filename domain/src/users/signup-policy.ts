import { z } from 'zod';
import { ForbiddenError } from '../core/errors.js';
import type { Command, Decider, Event } from '../core/event.js';
import { type SignupMode, signupMessages, signupModes } from './user-vocabulary.js';

/**
 * Who may sign up (issue 40): anyone (`open`, the spec's default) or only people an admin
 * invited (`invitation`: testers and developers bring a code or a link an admin made; an
 * admin signup needs an admin invite code either way). An admin sets it; each change is a
 * fact in the one stream `settings-signup`.
 */
export const signupPolicySetData = z.object({ mode: z.enum(signupModes) });
export type SignupPolicySetData = z.infer<typeof signupPolicySetData>;
export type SignupPolicySet = Event<'SignupPolicySet', SignupPolicySetData>;
export type SignupPolicyEvent = SignupPolicySet;

export type SignupPolicyState = Readonly<{ mode: SignupMode }>;
export type SetSignupPolicy = Command<'SetSignupPolicy', { mode: SignupMode }>;

function decideSignupPolicy(command: SetSignupPolicy, state: SignupPolicyState): SignupPolicyEvent[] {
  if (command.metadata.actor?.role !== 'admin') throw new ForbiddenError(signupMessages.adminsOnly);
  if (command.data.mode === state.mode) return [];
  return [{ type: 'SignupPolicySet', data: { mode: command.data.mode } }];
}

export const signupPolicyDecider: Decider<SignupPolicyState, SetSignupPolicy, SignupPolicyEvent> = {
  initialState: () => ({ mode: 'open' }),
  evolve: (_state, event) => ({ mode: event.data.mode }),
  decide: decideSignupPolicy,
};
