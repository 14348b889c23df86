import type { ChatState } from './chat.js';
import type { ChatType } from './chat.schemas.js';

/** What a permission needs to know of a chat (from its state or its read-model row). */
export type ChatAccessFacts = Readonly<{ type: ChatType; participants: readonly string[]; admins: readonly string[] }>;

/**
 * api.md's chat rules as functions of (user, chat). Private and team chats exist
 * only for their participants (others get 404); public chats are visible to all.
 */
export const chatPermissions = {
  canSee(userId: string, chat: ChatAccessFacts): boolean {
    return chat.type === 'public' || chat.participants.includes(userId);
  },
  isParticipant(userId: string, chat: ChatAccessFacts): boolean {
    return chat.participants.includes(userId);
  },
  /** Name, members, admins, AI settings, deletion. */
  canManage(userId: string, chat: ChatAccessFacts): boolean {
    return chat.admins.includes(userId);
  },
  canJoin(userId: string, chat: ChatAccessFacts): boolean {
    return chat.type === 'public' && !chat.participants.includes(userId);
  },
  canDeleteMessage(userId: string, chat: ChatAccessFacts, message: { senderId: string | null }): boolean {
    return message.senderId === userId || chat.admins.includes(userId);
  },
} as const;

export function isActiveChat(state: ChatState): state is Extract<ChatState, { status: 'active' }> {
  return state.status === 'active';
}
