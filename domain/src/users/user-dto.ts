import type { Role } from '../core/event.js';

/** A user as every answer shows it: both spellings of the image field, same value. */
export type UserDto = {
  _id: string;
  name: string;
  email?: string;
  role?: Role;
  profileImageURL: string | null;
  profileImageUrl: string | null;
  /** `true` for someone an admin deactivated (api.md "People"); absent for everyone else. */
  deactivated?: true;
};

export function toUserDto(user: {
  id: string;
  name: string;
  email?: string;
  role?: Role;
  profileImageURL: string | null;
  deactivated?: boolean;
}): UserDto {
  return {
    _id: user.id,
    name: user.name,
    ...(user.email === undefined ? {} : { email: user.email }),
    ...(user.role === undefined ? {} : { role: user.role }),
    profileImageURL: user.profileImageURL,
    profileImageUrl: user.profileImageURL,
    ...(user.deactivated ? { deactivated: true as const } : {}),
  };
}
