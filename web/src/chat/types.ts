/** Chats and messages as the chat API answers them (design/api.md, "Chats"). */
export const chatTypes = ['private', 'team', 'public', 'ai_assistant'] as const;
export type ChatType = (typeof chatTypes)[number];

export const aiModels = ['gpt-3.5-turbo', 'gpt-4', 'claude-3-sonnet', 'claude-3-opus'] as const;
export type AiModel = (typeof aiModels)[number];

export const DEFAULT_SYSTEM_PROMPT = 'You are a helpful assistant in a bug tracking application.';

export type ChatUser = {
  _id: string;
  name: string;
  profileImageURL?: string | null;
  profileImageUrl?: string | null;
};

export type AiAssistantSettings = { enabled: boolean; model: AiModel; systemPrompt: string };

export type LastMessage = {
  _id?: string;
  content: string;
  createdAt: string;
  isDeleted: boolean;
  isAIMessage: boolean;
  sender: { _id: string; name: string } | null;
};

export type Chat = {
  _id: string;
  name: string;
  type: ChatType;
  /** Users, or (tolerated) bare ids. */
  participants: (ChatUser | string)[];
  admins: (ChatUser | string)[];
  aiAssistant: AiAssistantSettings;
  lastMessage: LastMessage | null;
  unreadCount?: number;
  createdAt?: string;
  updatedAt?: string;
};

export type Attachment = { filename: string; path: string; mimetype: string; size?: number };

export type RepliedMessage = {
  _id: string;
  content: string;
  sender: { _id: string; name: string } | null;
  isDeleted?: boolean;
  isAIMessage?: boolean;
  createdAt?: string;
};

export type Message = {
  _id: string;
  chat: string;
  sender: ChatUser | null;
  content: string;
  attachments: Attachment[];
  mentions: string[];
  replyTo: RepliedMessage | string | null;
  isDeleted: boolean;
  isAIMessage: boolean;
  createdAt: string;
  /** Client only: shown while the send is in flight. */
  isTemp?: boolean;
};

export type MessagePage = { messages: Message[]; page: number; hasMore: boolean };

export const chatTypeLabel: Record<ChatType, string> = {
  private: 'Private',
  team: 'Team',
  public: 'Public',
  ai_assistant: 'AI Assistant',
};
