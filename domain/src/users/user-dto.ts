import type { Role } from '../core/event.js';

/** A user as every answer shows it: both spellings of the image field, same value. */
export type UserDto = {
  _id: string;
  name: string;
  email?: string;
  role?: Role;
  profileImageURL: string | null;
  profileImageUrl: string | null;
};

export function toUserDto(user: {
  id: string;
  name: string;
  email?: string;
  role?: Role;
  profileImageURL: string | null;
}): UserDto {
  return {
    _id: user.id,
    name: user.name,
    ...(user.email === undefined ? {} : { email: user.email }),
    ...(user.role === undefined ? {} : { role: user.role }),
    profileImageURL: user.profileImageURL,
    profileImageUrl: user.profileImageURL,
  };
}
