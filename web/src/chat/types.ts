import type { ChatDto, ChatUserDto, LastMessageDto, MessageDto, RepliedMessageDto } from '@bugtrail/domain/vocabulary';

/**
 * Chats and messages as the chat API answers them: the domain's answer shapes and
 * words, through its zod-free browser door.
 */
export {
  type AiAssistantSettings,
  type AiModel,
  type Attachment,
  aiModels,
  type ChatType,
  chatDefaults,
  chatTypeDisplayNames as chatTypeLabel,
  chatTypes,
} from '@bugtrail/domain/vocabulary';

/** A user as chat answers carry them; the `/users` directory gives only id and name. */
export type ChatUser = Pick<ChatUserDto, '_id' | 'name'> & Partial<Omit<ChatUserDto, '_id' | 'name'>>;

export type Chat = ChatDto;
export type LastMessage = LastMessageDto;
export type RepliedMessage = RepliedMessageDto;

export type Message = MessageDto & {
  /** Client only: shown while the send is in flight. */
  isTemp?: boolean;
};

export type MessagePage = { messages: Message[]; page: number; hasMore: boolean };
