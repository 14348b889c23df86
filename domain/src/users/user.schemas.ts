import { z } from 'zod';
import { emailPattern, roles, signupRoles } from './user-vocabulary.js';

export { emailPattern, roles, userMessages } from './user-vocabulary.js';

export const roleSchema = z.enum(roles);
/** The roles signup offers (never the auditor). */
export const signupRoleSchema = z.enum(signupRoles);

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

/** An admin changed someone's role (api.md "The auditor role"). */
export const userRoleChangedData = z.object({ userId: z.string().min(1), from: roleSchema, to: roleSchema });
export type UserRoleChangedData = z.infer<typeof userRoleChangedData>;
