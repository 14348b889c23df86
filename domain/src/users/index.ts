import { registerEvents } from '../core/registry.js';
import { passwordChangedData, profileUpdatedData, userRegisteredData, userRoleChangedData } from './user.schemas.js';

registerEvents({
  UserRegistered: { version: 1, data: userRegisteredData },
  ProfileUpdated: { version: 1, data: profileUpdatedData },
  PasswordChanged: { version: 1, data: passwordChangedData },
  UserRoleChanged: { version: 1, data: userRoleChangedData },
});

export * from './decide.js';
export * from './permissions.js';
export * from './user.js';
export * from './user.schemas.js';
export * from './user-dto.js';
export * from './user-vocabulary.js';
export * from './validation.js';
