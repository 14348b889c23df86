/**
 * Personal API tokens for scripts and CI (api.md "Integrations"): the words and limits the
 * server and the web app share. No zod here (the browser imports this through vocabulary.ts).
 */
export const apiTokenScopes = ['read', 'write'] as const;
export type ApiTokenScope = (typeof apiTokenScopes)[number];

/** What a token's secret starts with, so scanners and people can tell one at a glance. */
export const API_TOKEN_PREFIX = 'btp_';

export const apiTokenLimits = {
  nameMax: 100,
  expiresInDaysMin: 1,
  expiresInDaysMax: 366,
  expiresInDaysDefault: 90,
  /** Tokens alive at once per person. */
  perUser: 50,
} as const;

export const apiTokenMessages = {
  nameRequired: 'Please enter a token name',
  nameTooLong: `Token name cannot exceed ${apiTokenLimits.nameMax} characters`,
  scopeInvalid: 'Scope must be read or write',
  expiryInvalid: `Expiry must be a whole number of days from ${apiTokenLimits.expiresInDaysMin} to ${apiTokenLimits.expiresInDaysMax}`,
  limitReached: `You can have at most ${apiTokenLimits.perUser} tokens; revoke one first`,
  notFound: 'Token not found',
  onlyAdminsListAll: "Only an admin can list everyone's tokens",
  scopeRefused: 'Token scope does not allow this',
  notWithToken: 'An API token cannot do this; sign in instead',
  expired: 'Token expired',
  invalid: 'Not authorized, token failed',
} as const;

/** A token as answered: never its secret. `user` only in an admin's `?all=true` list. */
export type ApiTokenDto = {
  _id: string;
  name: string;
  scope: ApiTokenScope;
  createdAt: string;
  expiresAt: string;
  lastUsedAt: string | null;
  user?: { _id: string; name: string };
};
