import { z } from 'zod';
import { apiTokenLimits, apiTokenMessages, apiTokenScopes } from './api-token-vocabulary.js';

/** `POST /api/tokens`. */
export const createApiTokenBody = z.object({
  name: z
    .string({ error: apiTokenMessages.nameRequired })
    .trim()
    .min(1, apiTokenMessages.nameRequired)
    .max(apiTokenLimits.nameMax, apiTokenMessages.nameTooLong),
  scope: z.enum(apiTokenScopes, { error: apiTokenMessages.scopeInvalid }),
  expiresInDays: z
    .number({ error: apiTokenMessages.expiryInvalid })
    .int(apiTokenMessages.expiryInvalid)
    .min(apiTokenLimits.expiresInDaysMin, apiTokenMessages.expiryInvalid)
    .max(apiTokenLimits.expiresInDaysMax, apiTokenMessages.expiryInvalid)
    .optional(),
  /** A fresh proof: the password, unless the session signed in within the last 5 minutes. */
  currentPassword: z.string().max(10_000).optional().nullable(),
});
export type CreateApiTokenBody = z.infer<typeof createApiTokenBody>;

export const apiTokenDtoSchema = z.object({
  _id: z.string(),
  name: z.string(),
  scope: z.enum(apiTokenScopes),
  createdAt: z.string(),
  expiresAt: z.string(),
  lastUsedAt: z.string().nullable(),
  user: z.object({ _id: z.string(), name: z.string() }).optional(),
});
