import { z } from 'zod';
import { emailPattern, roles } from './user-vocabulary.js';

export { emailPattern, roles, userMessages } from './user-vocabulary.js';

export const roleSchema = z.enum(roles);

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
