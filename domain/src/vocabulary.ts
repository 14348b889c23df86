/**
 * The browser's door to the domain: the words, display names, form rules with their
 * messages, and the answer shapes (DTO types) — and nothing that pulls in zod or the
 * event schemas (the root door registers every event schema on import). The web app
 * imports only this; `vocabulary.unit.spec.ts` keeps it free of zod.
 */

export * from './automations/automation-vocabulary.js';
export type { BugDto, UserRef } from './bugs/bug-dto.js';
export * from './bugs/bug-vocabulary.js';
export {
  type BugFileDto,
  bugFileLimits,
  bugFileMessages,
  bugFileTypes,
  isPreviewableImage,
} from './bugs/files.js';
export * from './bugs/import-vocabulary.js';
export type { BugAccessFacts } from './bugs/permissions.js';
export { bugMessages, bugPermissions } from './bugs/permissions.js';
export { parseStatusFilter, statusFromInput, statusMessages } from './bugs/status.js';
export * from './bugs/triage.js';
export {
  type AdminBugUpdateValues,
  type BugFormOptions,
  type BugFormValues,
  bugLimitMessages,
  bugLimits,
  cleanEntries,
  isDueDateAcceptable,
  isSafeLink,
  normaliseDueDate,
  validateAdminBugUpdate,
  validateAttachmentLinks,
  validateBugForm,
  validateChecklistTexts,
} from './bugs/validation.js';
export * from './bugs/worklog-vocabulary.js';
export type { AiAssistantSettings, Attachment } from './chats/chat.schemas.js';
export {
  aiAssistantSender,
  type ChatDto,
  type ChatUserDto,
  type LastMessageDto,
  type MessageDto,
  type RepliedMessageDto,
} from './chats/chat-dto.js';
export * from './chats/chat-vocabulary.js';
export { type ChatAccessFacts, chatPermissions } from './chats/permissions.js';
export type { FieldIssue } from './core/errors.js';
export type { Actor, Role } from './core/event.js';
// Types only: erased, so the event schemas' zod stays out of the browser.
export type { NotificationDto, NotificationKind } from './notifications/notifications.js';
export * from './projects/field-values.js';
export * from './projects/field-vocabulary.js';
export * from './projects/project-vocabulary.js';
export * from './projects/state-values.js';
export * from './sla/sla-vocabulary.js';
export * from './users/api-token-vocabulary.js';
export { rolePermissions } from './users/permissions.js';
export type { EmailPreference } from './users/user.schemas.js';
export type { UserDto } from './users/user-dto.js';
export * from './users/user-vocabulary.js';
export {
  isValidEmail,
  normaliseEmail,
  type RegistrationInput,
  resolveRole,
  resolveSignupRole,
  validatePassword,
  validateRegistration,
} from './users/validation.js';
export * from './views/view-vocabulary.js';
export * from './webhooks/webhook-types.js';
export * from './webhooks/webhook-vocabulary.js';
