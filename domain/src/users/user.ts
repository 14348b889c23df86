import type { Event, Role } from '../core/event.js';
import type {
  MfaResetData,
  NotificationPreferencesChangedData,
  PasswordChangedData,
  PasswordResetRequestedData,
  ProfileUpdatedData,
  UserDeactivatedData,
  UserReactivatedData,
  UserRegisteredData,
  UserRoleChangedData,
} from './user.schemas.js';

export type UserRegistered = Event<'UserRegistered', UserRegisteredData>;
export type ProfileUpdated = Event<'ProfileUpdated', ProfileUpdatedData>;
export type PasswordChanged = Event<'PasswordChanged', PasswordChangedData>;
export type UserRoleChanged = Event<'UserRoleChanged', UserRoleChangedData>;
export type UserDeactivated = Event<'UserDeactivated', UserDeactivatedData>;
export type UserReactivated = Event<'UserReactivated', UserReactivatedData>;
export type PasswordResetRequested = Event<'PasswordResetRequested', PasswordResetRequestedData>;
export type MfaReset = Event<'MfaReset', MfaResetData>;
export type NotificationPreferencesChanged = Event<
  'NotificationPreferencesChanged',
  NotificationPreferencesChangedData
>;
export type UserEvent =
  | UserRegistered
  | ProfileUpdated
  | PasswordChanged
  | UserRoleChanged
  | UserDeactivated
  | UserReactivated
  | PasswordResetRequested
  | MfaReset
  | NotificationPreferencesChanged;

export type UserState =
  | Readonly<{ status: 'empty' }>
  | Readonly<{
      status: 'registered';
      id: string;
      name: string;
      email: string;
      role: Role;
      profileImageURL: string | null;
      /** Deactivated by an admin: no login, no token, still named in every list and history. */
      deactivated: boolean;
      /** How notifications are mailed (api.md "People"). */
      emailPreference: 'immediate' | 'daily' | 'off';
    }>;

export const initialUserState = (): UserState => ({ status: 'empty' });

export function evolveUser(state: UserState, event: UserEvent): UserState {
  switch (event.type) {
    case 'UserRegistered': {
      const d = event.data;
      return {
        status: 'registered',
        id: d.userId,
        name: d.name,
        email: d.email,
        role: d.role,
        profileImageURL: d.profileImageURL,
        deactivated: false,
        emailPreference: 'immediate',
      };
    }
    case 'ProfileUpdated': {
      if (state.status !== 'registered') return state;
      const d = event.data;
      return {
        ...state,
        name: d.name ?? state.name,
        email: d.email ?? state.email,
        profileImageURL: d.profileImageURL === undefined ? state.profileImageURL : d.profileImageURL,
      };
    }
    case 'PasswordChanged':
    case 'PasswordResetRequested':
    case 'MfaReset':
      return state;
    case 'NotificationPreferencesChanged':
      return state.status === 'registered' ? { ...state, emailPreference: event.data.email } : state;
    case 'UserDeactivated':
      return state.status === 'registered' ? { ...state, deactivated: true } : state;
    case 'UserReactivated':
      return state.status === 'registered' ? { ...state, deactivated: false } : state;
    case 'UserRoleChanged':
      return state.status === 'registered' ? { ...state, role: event.data.to } : state;
    default:
      return state;
  }
}
