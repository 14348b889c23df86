import { z } from 'zod';

export const roles = ['admin', 'tester', 'developer'] as const;
export const roleSchema = z.enum(roles);

export const userMessages = {
  nameRequired: 'Please enter full name',
  emailInvalid: 'Please enter a valid email address',
  passwordRequired: 'Please enter the password',
  passwordTooShort: 'Password must be at least 8 characters long',
  passwordTooLong: 'Password cannot exceed 128 characters',
  inviteRequired: 'Admin invite token is required for admin registration',
  inviteInvalid: 'Invalid admin invite token',
  userExists: 'User already exists',
  invalidCredentials: 'Invalid email or password',
  roleNotWritable: 'Role cannot be changed',
  nameTooLong: 'Name cannot exceed 100 characters',
} as const;

/** The basic email pattern the spec's forms use. */
export const emailPattern = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export const userRegisteredData = z.object({
  userId: z.string().min(1),
  name: z.string().min(1).max(100),
  email: z.string().regex(emailPattern),
  role: roleSchema,
  profileImageURL: z.string().max(2048).nullable(),
});
export type UserRegisteredData = z.infer<typeof userRegisteredData>;

export const profileUpdatedData = z.object({
  userId: z.string().min(1),
  name: z.string().min(1).max(100).optional(),
  email: z.string().regex(emailPattern).optional(),
  profileImageURL: z.string().max(2048).nullable().optional(),
});
export type ProfileUpdatedData = z.infer<typeof profileUpdatedData>;

export const passwordChangedData = z.object({ userId: z.string().min(1) });
export type PasswordChangedData = z.infer<typeof passwordChangedData>;
