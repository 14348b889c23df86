/**
 * Chat types, AI models, defaults, limits and the chat texts, with no schema library:
 * the browser loads this through `@bugtrail/domain/vocabulary`; `chat.schemas.ts`
 * builds its zod enums from it.
 */
export const chatTypes = ['private', 'team', 'public', 'ai_assistant'] as const;
export type ChatType = (typeof chatTypes)[number];

export const aiModels = ['gpt-3.5-turbo', 'gpt-4', 'claude-3-sonnet', 'claude-3-opus'] as const;
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
  /** A failure is still the message's one answer: this, then the reason (never a key or a prompt). */
  failedPrefix: 'The assistant could not answer: ',
  /** Someone pressed Stop: the text so far, then this mark. */
  stoppedMark: '_(stopped)_',
  stoppedEmpty: 'Stopped before the assistant wrote anything.',
  stopping: 'Stopping the answer',
} as const;

/** How screens name a chat type. */
export const chatTypeDisplayNames = {
  private: 'Private',
  team: 'Team',
  public: 'Public',
  ai_assistant: 'AI Assistant',
} as const satisfies Readonly<Record<ChatType, string>>;
