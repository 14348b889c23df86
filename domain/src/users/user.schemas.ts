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
  /** The minted admin invite code this signup used (absent for the bootstrap code and other roles). */
  inviteCodeId: z.string().min(1).optional(),
  /** `oidc`: the account was made by a first single sign-on (a tester, matched by verified email later). */
  via: z.literal('oidc').optional(),
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

/** An admin deactivated or reactivated someone (api.md "People"); the person stays in every list and history. */
export const userDeactivatedData = z.object({ userId: z.string().min(1) });
export type UserDeactivatedData = z.infer<typeof userDeactivatedData>;
export const userReactivatedData = z.object({ userId: z.string().min(1) });
export type UserReactivatedData = z.infer<typeof userReactivatedData>;
/** An admin turned the person's two-factor sign-in off (their secret and recovery codes are gone). */
export const mfaResetData = z.object({ userId: z.string().min(1) });
export type MfaResetData = z.infer<typeof mfaResetData>;

/**
 * An admin made a one-time password-reset link for someone, or the person asked for one
 * by mail (`byEmail`). The token is never in the event: only that a link exists, and until when.
 */
/** How a person wants notifications mailed (api.md "People"): each at once, a daily digest, or never. */
export const emailPreferences = ['immediate', 'daily', 'off'] as const;
export type EmailPreference = (typeof emailPreferences)[number];
export const notificationPreferencesChangedData = z.object({
  userId: z.string().min(1),
  email: z.enum(emailPreferences),
});
export type NotificationPreferencesChangedData = z.infer<typeof notificationPreferencesChangedData>;

export const passwordResetRequestedData = z.object({
  userId: z.string().min(1),
  expiresAt: z.string().min(1),
  byEmail: z.boolean(),
});
export type PasswordResetRequestedData = z.infer<typeof passwordResetRequestedData>;
