import type { AiAssistantSettings, Attachment, ChatType } from './chat.schemas.js';

/** Chats and messages as every answer shows them (write answers and reads alike). */
export type ChatUserDto = {
  _id: string;
  name: string;
  profileImageURL: string | null;
  profileImageUrl: string | null;
};

export type LastMessageDto = {
  _id: string;
  content: string;
  createdAt: string;
  isDeleted: boolean;
  isAIMessage: boolean;
  sender: { _id: string; name: string };
};

export type ChatDto = {
  _id: string;
  name: string;
  type: ChatType;
  participants: ChatUserDto[];
  admins: ChatUserDto[];
  aiAssistant: AiAssistantSettings;
  createdBy: { _id: string; name: string };
  createdAt: string;
  updatedAt: string;
  lastMessage: LastMessageDto | null;
  unreadCount: number;
};

export type RepliedMessageDto = {
  _id: string;
  content: string;
  sender: { _id: string; name: string };
  isDeleted: boolean;
  isAIMessage: boolean;
  createdAt: string;
};

export type MessageDto = {
  _id: string;
  chat: string;
  sender: ChatUserDto;
  content: string;
  attachments: Attachment[];
  mentions: string[];
  replyTo: RepliedMessageDto | null;
  isDeleted: boolean;
  isAIMessage: boolean;
  createdAt: string;
};

/** The assistant as a sender, so clients that read `sender.name` need no special case. */
export const aiAssistantSender: ChatUserDto = {
  _id: 'ai-assistant',
  name: 'AI Assistant',
  profileImageURL: null,
  profileImageUrl: null,
};
