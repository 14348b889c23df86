import { ConflictError, ForbiddenError, NotFoundError, ValidationError } from '../core/errors.js';
import { type Actor, assertNever, type Command, type Decider, type Role } from '../core/event.js';
import { rolePermissions } from './permissions.js';
import type { ProfileUpdated, UserEvent, UserState } from './user.js';
import { evolveUser, initialUserState } from './user.js';
import { type EmailPreference, emailPreferences, userMessages } from './user.schemas.js';
import { isValidEmail, normaliseEmail, resolveRole } from './validation.js';

export type RegisterUser = Command<
  'RegisterUser',
  {
    userId: string;
    name: string;
    email: string;
    role: Role;
    profileImageURL: string | null;
    inviteCodeId?: string;
    via?: 'oidc';
  }
>;
export type UpdateProfile = Command<
  'UpdateProfile',
  { userId: string; name?: string; email?: string; profileImageURL?: string | null; passwordChanged?: boolean }
>;
/**
 * An admin gives a user another role. `adminIds` are the admins as the write side knows
 * them when it decides (its credentials table, rows locked), so the last one cannot go.
 */
export type ChangeRole = Command<'ChangeRole', { userId: string; role: string; adminIds: readonly string[] }>;
/**
 * An admin deactivates someone (api.md "People"). `adminIds` are the active admins as the
 * write side knows them when it decides (rows locked), so the last one cannot go.
 */
export type DeactivateUser = Command<'DeactivateUser', { userId: string; adminIds: readonly string[] }>;
export type ReactivateUser = Command<'ReactivateUser', { userId: string }>;
/** A one-time reset link was made: by an admin for someone, or by mail at the person's request (no actor). */
export type RequestPasswordReset = Command<
  'RequestPasswordReset',
  { userId: string; expiresAt: string; byEmail: boolean }
>;
/** An admin turns someone's two-factor sign-in off (the owner lost their device and codes). */
export type ResetMfa = Command<'ResetMfa', { userId: string }>;
/** The person (or an admin for them) chooses how notifications are mailed. */
export type SetNotificationPreferences = Command<'SetNotificationPreferences', { userId: string; email: string }>;
export type UserCommand =
  | SetNotificationPreferences
  | RegisterUser
  | UpdateProfile
  | ChangeRole
  | DeactivateUser
  | ReactivateUser
  | RequestPasswordReset
  | ResetMfa;

function register(command: RegisterUser, state: UserState): UserEvent[] {
  if (state.status !== 'empty') throw new ConflictError(userMessages.userExists);
  const d = command.data;
  return [
    {
      type: 'UserRegistered',
      data: {
        userId: d.userId,
        name: d.name.trim(),
        email: normaliseEmail(d.email),
        role: d.role,
        profileImageURL: d.profileImageURL,
        ...(d.inviteCodeId ? { inviteCodeId: d.inviteCodeId } : {}),
        ...(d.via ? { via: d.via } : {}),
      },
    },
  ];
}

function updateProfile(command: UpdateProfile, state: UserState): UserEvent[] {
  if (state.status !== 'registered') throw new NotFoundError('User not found');
  const actor = command.metadata.actor;
  if (!actor || (actor.id !== state.id && actor.role !== 'admin')) {
    throw new ForbiddenError("You don't have permission to update this user");
  }
  const d = command.data;
  const change: { -readonly [K in keyof ProfileUpdated['data']]: ProfileUpdated['data'][K] } = { userId: state.id };
  if (d.name !== undefined) {
    const name = d.name.trim();
    if (!name) throw ValidationError.field('name', userMessages.nameRequired);
    if (name.length > 100) throw ValidationError.field('name', userMessages.nameTooLong);
    if (name !== state.name) change.name = name;
  }
  if (d.email !== undefined) {
    if (!isValidEmail(d.email)) throw ValidationError.field('email', userMessages.emailInvalid);
    const email = normaliseEmail(d.email);
    if (email !== state.email) change.email = email;
  }
  if (d.profileImageURL !== undefined && d.profileImageURL !== state.profileImageURL) {
    change.profileImageURL = d.profileImageURL;
  }
  const events: UserEvent[] = [];
  if (Object.keys(change).length > 1) events.push({ type: 'ProfileUpdated', data: change });
  if (d.passwordChanged) events.push({ type: 'PasswordChanged', data: { userId: state.id } });
  return events;
}

function changeRole(command: ChangeRole, state: UserState): UserEvent[] {
  const actor = command.metadata.actor;
  // The token's role may predate a demotion still in flight: the caller must be an admin now.
  if (!actor || !rolePermissions.canChangeRoles(actor) || !command.data.adminIds.includes(actor.id)) {
    throw new ForbiddenError(userMessages.cannotChangeRoles);
  }
  if (state.status !== 'registered') throw new NotFoundError('User not found');
  const raw = command.data.role;
  const role = typeof raw === 'string' && raw.trim() ? resolveRole(raw) : 'invalid';
  if (role === 'invalid') throw ValidationError.field('role', userMessages.roleInvalid);
  if (role === state.role) return [];
  if (state.role === 'admin' && !command.data.adminIds.some((id) => id !== state.id)) {
    throw ValidationError.field('role', userMessages.lastAdmin);
  }
  return [{ type: 'UserRoleChanged', data: { userId: state.id, from: state.role, to: role } }];
}

function requireAdmin(command: { metadata: { actor: Actor | null } }, adminIds?: readonly string[]): void {
  const actor = command.metadata.actor;
  // The token's role may predate a demotion still in flight: where the write side knows the admins, the caller must be one now.
  if (actor?.role !== 'admin' || (adminIds && !adminIds.includes(actor.id))) {
    throw new ForbiddenError(userMessages.cannotManageUsers);
  }
}

function deactivate(command: DeactivateUser, state: UserState): UserEvent[] {
  requireAdmin(command, command.data.adminIds);
  if (state.status !== 'registered') throw new NotFoundError('User not found');
  if (state.deactivated) return [];
  if (state.role === 'admin' && !command.data.adminIds.some((id) => id !== state.id)) {
    throw new ConflictError(userMessages.lastAdmin);
  }
  return [{ type: 'UserDeactivated', data: { userId: state.id } }];
}

function reactivate(command: ReactivateUser, state: UserState): UserEvent[] {
  requireAdmin(command);
  if (state.status !== 'registered') throw new NotFoundError('User not found');
  if (!state.deactivated) return [];
  return [{ type: 'UserReactivated', data: { userId: state.id } }];
}

function requestPasswordReset(command: RequestPasswordReset, state: UserState): UserEvent[] {
  if (!command.data.byEmail) requireAdmin(command);
  if (state.status !== 'registered') throw new NotFoundError('User not found');
  if (state.deactivated) throw new ConflictError(userMessages.deactivated);
  const { expiresAt, byEmail } = command.data;
  return [{ type: 'PasswordResetRequested', data: { userId: state.id, expiresAt, byEmail } }];
}

function resetMfa(command: ResetMfa, state: UserState): UserEvent[] {
  requireAdmin(command);
  if (state.status !== 'registered') throw new NotFoundError('User not found');
  return [{ type: 'MfaReset', data: { userId: state.id } }];
}

function setPreferences(command: SetNotificationPreferences, state: UserState): UserEvent[] {
  if (state.status !== 'registered') throw new NotFoundError('User not found');
  const actor = command.metadata.actor;
  // A null actor: the one-click unsubscribe link, whose signed token names the person.
  if (actor && actor.id !== state.id && actor.role !== 'admin') {
    throw new ForbiddenError("You don't have permission to update this user");
  }
  const email = command.data.email;
  if (!(emailPreferences as readonly string[]).includes(email)) {
    throw ValidationError.field('email', userMessages.emailPreferenceInvalid);
  }
  if (email === state.emailPreference) return [];
  return [{ type: 'NotificationPreferencesChanged', data: { userId: state.id, email: email as EmailPreference } }];
}

export function decideUser(command: UserCommand, state: UserState): UserEvent[] {
  switch (command.type) {
    case 'RegisterUser':
      return register(command, state);
    case 'UpdateProfile':
      return updateProfile(command, state);
    case 'ChangeRole':
      return changeRole(command, state);
    case 'DeactivateUser':
      return deactivate(command, state);
    case 'ReactivateUser':
      return reactivate(command, state);
    case 'RequestPasswordReset':
      return requestPasswordReset(command, state);
    case 'SetNotificationPreferences':
      return setPreferences(command, state);
    case 'ResetMfa':
      return resetMfa(command, state);
    default:
      return assertNever(command);
  }
}

export const userDecider: Decider<UserState, UserCommand, UserEvent> = {
  initialState: initialUserState,
  evolve: evolveUser,
  decide: decideUser,
};
