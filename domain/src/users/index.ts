import { registerEvents } from '../core/registry.js';
import { inviteCodeMintedData, inviteCodeRevokedData } from './invites.js';
import { signupPolicySetData } from './signup-policy.js';
import {
  mfaResetData,
  notificationPreferencesChangedData,
  passwordChangedData,
  passwordResetRequestedData,
  profileUpdatedData,
  userDeactivatedData,
  userReactivatedData,
  userRegisteredData,
  userRoleChangedData,
} from './user.schemas.js';

/** The users feature's events: type → schema version and data schema. */
export const userEventSchemas = {
  UserRegistered: { version: 1, data: userRegisteredData },
  ProfileUpdated: { version: 1, data: profileUpdatedData },
  PasswordChanged: { version: 1, data: passwordChangedData },
  UserRoleChanged: { version: 1, data: userRoleChangedData },
  UserDeactivated: { version: 1, data: userDeactivatedData },
  UserReactivated: { version: 1, data: userReactivatedData },
  PasswordResetRequested: { version: 1, data: passwordResetRequestedData },
  MfaReset: { version: 1, data: mfaResetData },
  NotificationPreferencesChanged: { version: 1, data: notificationPreferencesChangedData },
  InviteCodeMinted: { version: 1, data: inviteCodeMintedData },
  InviteCodeRevoked: { version: 1, data: inviteCodeRevokedData },
  SignupPolicySet: { version: 1, data: signupPolicySetData },
} as const;
registerEvents(userEventSchemas);

export * from './api-token.schemas.js';
export * from './api-token-vocabulary.js';
export * from './decide.js';
export * from './invites.js';
export * from './permissions.js';
export * from './signup-policy.js';
export * from './user.js';
export * from './user.schemas.js';
export * from './user-dto.js';
export * from './user-vocabulary.js';
export * from './validation.js';
