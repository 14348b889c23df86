import { z } from 'zod';

/**
 * Chat events: configuration in `chat-{id}`, messages (and read markers) in
 * `chatmsgs-{id}`. The contract between write-api, the projector, the AI reactor
 * and auditors.
 */
export const chatTypes = ['private', 'team', 'public', 'ai_assistant'] as const;
export const chatTypeSchema = z.enum(chatTypes);
export type ChatType = (typeof chatTypes)[number];

export const aiModels = ['gpt-3.5-turbo', 'gpt-4', 'claude-3-sonnet', 'claude-3-opus'] as const;
export const aiModelSchema = z.enum(aiModels);
export type AiModel = (typeof aiModels)[number];

export const chatDefaults = {
  type: 'private' as ChatType,
  aiModel: 'gpt-3.5-turbo' as AiModel,
  systemPrompt: 'You are a helpful assistant in a bug tracking application.',
} as const;

export const chatLimits = {
  nameMax: 100,
  systemPromptMax: 4000,
  messageMax: 5000,
  attachmentsPerMessage: 5,
  attachmentBytes: 20 * 1024 * 1024,
  pageSize: 50,
} as const;

export const chatMessages = {
  notFound: 'Chat not found',
  nameRequired: 'Chat name is required',
  nameTooLong: `Chat name cannot exceed ${chatLimits.nameMax} characters`,
  typeInvalid: `Chat type must be one of ${chatTypes.join(', ')}`,
  typeImmutable: 'Chat type cannot be changed',
  onlyAdminsModify: 'Only chat admins can modify this chat',
  onlyAdminsDelete: 'Only chat admins can delete this chat',
  lastAdmin: 'The last admin cannot be removed',
  modelInvalid: `AI model must be one of ${aiModels.join(', ')}`,
  promptTooLong: `System prompt cannot exceed ${chatLimits.systemPromptMax} characters`,
  unknownUsers: 'Participants must be registered users',
  joinToSend: 'Join this chat to send messages',
  messageEmpty: 'Message must have text or at least one attachment',
  messageTooLong: `Message cannot exceed ${chatLimits.messageMax} characters`,
  mentionsNotMembers: 'Mentioned users must be members of this chat',
  replyNotInChat: 'A reply must quote a message of this chat',
  messageNotFound: 'Message not found',
  cannotDeleteMessage: 'Only the sender or a chat admin can delete this message',
  deletedMessage: 'This message was deleted',
  tooManyAttachments: `At most ${chatLimits.attachmentsPerMessage} attachments per message`,
  attachmentTooLarge: `Each attachment must be at most ${chatLimits.attachmentBytes / (1024 * 1024)} MB`,
  attachmentEmpty: 'Attachments cannot be empty',
  attachmentType: 'Attachment type not allowed: images, PDF, text, logs and zip files only',
} as const;

/** What the assistant says while no AI provider is configured: the truth, and how to fix it. */
export const aiAssistantTexts = {
  noProvider:
    'No AI provider is set up, so the assistant cannot answer yet. To enable it, an administrator sets ' +
    'AI_BASE_URL and AI_API_KEY (any OpenAI-compatible endpoint) or ANTHROPIC_API_KEY (Claude models) ' +
    'in the server environment and restarts Bugtrail.',
} as const;

const id = z.string().min(1).max(100);
const userIds = z.array(id);
const isoDate = z.string().datetime({ offset: true });

export const aiAssistantSettingsSchema = z.object({
  enabled: z.boolean(),
  model: aiModelSchema,
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
  model: aiModelSchema,
});
/** Everything in the chat before this marker (in stream order) is read by `userId`. */
export const chatReadMarkedData = z.object({ chatId: id, userId: id });

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
  ChatReadMarked: { version: 1, data: chatReadMarkedData },
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
