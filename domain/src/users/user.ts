import type { Event, Role } from '../core/event.js';
import type {
  PasswordChangedData,
  ProfileUpdatedData,
  UserRegisteredData,
  UserRoleChangedData,
} from './user.schemas.js';

export type UserRegistered = Event<'UserRegistered', UserRegisteredData>;
export type ProfileUpdated = Event<'ProfileUpdated', ProfileUpdatedData>;
export type PasswordChanged = Event<'PasswordChanged', PasswordChangedData>;
export type UserRoleChanged = Event<'UserRoleChanged', UserRoleChangedData>;
export type UserEvent = UserRegistered | ProfileUpdated | PasswordChanged | UserRoleChanged;

export type UserState =
  | Readonly<{ status: 'empty' }>
  | Readonly<{
      status: 'registered';
      id: string;
      name: string;
      email: string;
      role: Role;
      profileImageURL: string | null;
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
      return state;
    case 'UserRoleChanged':
      return state.status === 'registered' ? { ...state, role: event.data.to } : state;
    default:
      return state;
  }
}
