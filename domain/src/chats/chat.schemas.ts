import { z } from 'zod';
import { aiModels, chatLimits, chatTypes } from './chat-vocabulary.js';

export {
  type AiModel,
  aiAssistantTexts,
  aiModels,
  type ChatType,
  chatDefaults,
  chatLimits,
  chatMessages,
  chatTypes,
} from './chat-vocabulary.js';

/**
 * Chat events: configuration in `chat-{id}`, messages (and read markers) in
 * `chatmsgs-{id}`. The contract between write-api, the projector, the AI reactor
 * and auditors.
 */
export const chatTypeSchema = z.enum(chatTypes);
export const aiModelSchema = z.enum(aiModels);

const id = z.string().min(1).max(100);
const userIds = z.array(id);
const isoDate = z.string().datetime({ offset: true });

export const aiAssistantSettingsSchema = z.object({
  enabled: z.boolean(),
  /** One of the spec's four names, or a model a configured provider listed when it was chosen. */
  model: z.string().min(1).max(200),
  systemPrompt: z.string().min(1).max(chatLimits.systemPromptMax),
});
export type AiAssistantSettings = z.infer<typeof aiAssistantSettingsSchema>;

export const attachmentSchema = z.object({
  filename: z.string().min(1).max(255),
  /** URL path under /uploads/, made by the server. */
  path: z.string().min(1).max(1024),
  mimetype: z.string().min(1).max(200),
  size: z.number().int().nonnegative(),
});
export type Attachment = z.infer<typeof attachmentSchema>;

export const chatCreatedData = z.object({
  chatId: id,
  name: z.string().min(1).max(chatLimits.nameMax),
  type: chatTypeSchema,
  participants: userIds.min(1),
  admins: userIds.min(1),
  aiAssistant: aiAssistantSettingsSchema,
  createdBy: id,
  createdAt: isoDate,
});
export const chatRenamedData = z.object({ chatId: id, name: z.string().min(1).max(chatLimits.nameMax) });
export const chatMembersChangedData = z.object({ chatId: id, added: userIds, removed: userIds });
export const chatAdminsChangedData = z.object({ chatId: id, added: userIds, removed: userIds });
export const aiAssistantConfiguredData = aiAssistantSettingsSchema.extend({ chatId: id });
export const chatDeletedData = z.object({ chatId: id });

export const messageSentData = z.object({
  chatId: id,
  messageId: id,
  senderId: id,
  content: z.string().max(chatLimits.messageMax),
  attachments: z.array(attachmentSchema).max(chatLimits.attachmentsPerMessage),
  mentions: userIds,
  replyTo: id.nullable(),
});
export const messageDeletedData = z.object({ chatId: id, messageId: id, deletedBy: id });
export const aiMessagePostedData = z.object({
  chatId: id,
  messageId: id,
  content: z.string().min(1).max(20_000),
  /** The human message this answers. */
  replyTo: id,
  /** The chat's model name, or the provider's model that answered (a configured provider may list others). */
  model: z.string().min(1).max(200),
  /** Someone pressed Stop: `content` is what was written until then. */
  stopped: z.boolean().optional(),
  /** The provider could not answer: `content` says why ("The assistant could not answer: …"). */
  failed: z.boolean().optional(),
});
/**
 * `userId` has read the chat up to and including `throughRevision` of `chatmsgs-{id}`
 * (how far the reader got when they opened it). Version 1 markers have no
 * `throughRevision`: everything before the marker itself is read.
 */
export const chatReadMarkedData = z.object({
  chatId: id,
  userId: id,
  throughRevision: z.number().int().min(-1).optional(),
});

export const chatEventSchemas = {
  ChatCreated: { version: 1, data: chatCreatedData },
  ChatRenamed: { version: 1, data: chatRenamedData },
  ChatMembersChanged: { version: 1, data: chatMembersChangedData },
  ChatAdminsChanged: { version: 1, data: chatAdminsChangedData },
  AiAssistantConfigured: { version: 1, data: aiAssistantConfiguredData },
  ChatDeleted: { version: 1, data: chatDeletedData },
  MessageSent: { version: 1, data: messageSentData },
  MessageDeleted: { version: 1, data: messageDeletedData },
  AiMessagePosted: { version: 1, data: aiMessagePostedData },
  ChatReadMarked: { version: 2, data: chatReadMarkedData },
} as const;

type Data<K extends keyof typeof chatEventSchemas> = z.infer<(typeof chatEventSchemas)[K]['data']>;
export type ChatCreatedData = Data<'ChatCreated'>;
export type ChatRenamedData = Data<'ChatRenamed'>;
export type ChatMembersChangedData = Data<'ChatMembersChanged'>;
export type ChatAdminsChangedData = Data<'ChatAdminsChanged'>;
export type AiAssistantConfiguredData = Data<'AiAssistantConfigured'>;
export type ChatDeletedData = Data<'ChatDeleted'>;
export type MessageSentData = Data<'MessageSent'>;
export type MessageDeletedData = Data<'MessageDeleted'>;
export type AiMessagePostedData = Data<'AiMessagePosted'>;
export type ChatReadMarkedData = Data<'ChatReadMarked'>;
