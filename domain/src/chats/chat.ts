import type { Event } from '../core/event.js';
import type * as S from './chat.schemas.js';

export type ChatCreated = Event<'ChatCreated', S.ChatCreatedData>;
export type ChatRenamed = Event<'ChatRenamed', S.ChatRenamedData>;
export type ChatMembersChanged = Event<'ChatMembersChanged', S.ChatMembersChangedData>;
export type ChatAdminsChanged = Event<'ChatAdminsChanged', S.ChatAdminsChangedData>;
export type AiAssistantConfigured = Event<'AiAssistantConfigured', S.AiAssistantConfiguredData>;
export type ChatDeleted = Event<'ChatDeleted', S.ChatDeletedData>;
/** Events of `chat-{id}`. */
export type ChatEvent =
  | ChatCreated
  | ChatRenamed
  | ChatMembersChanged
  | ChatAdminsChanged
  | AiAssistantConfigured
  | ChatDeleted;

/** The types of `chat-{id}`'s events, for `eventsOf`/`isEvent` at the boundary. */
export const chatEventTypes = [
  'ChatCreated',
  'ChatRenamed',
  'ChatMembersChanged',
  'ChatAdminsChanged',
  'AiAssistantConfigured',
  'ChatDeleted',
] as const satisfies readonly ChatEvent['type'][];

export type MessageSent = Event<'MessageSent', S.MessageSentData>;
export type MessageDeleted = Event<'MessageDeleted', S.MessageDeletedData>;
export type AiMessagePosted = Event<'AiMessagePosted', S.AiMessagePostedData>;
export type ChatReadMarked = Event<'ChatReadMarked', S.ChatReadMarkedData>;
/** Events of `chatmsgs-{id}`. */
export type ChatMessageEvent = MessageSent | MessageDeleted | AiMessagePosted | ChatReadMarked;

export type ActiveChat = Readonly<{
  status: 'active';
  id: string;
  name: string;
  type: S.ChatType;
  participants: readonly string[];
  admins: readonly string[];
  aiAssistant: S.AiAssistantSettings;
  createdBy: string;
  createdAt: string;
}>;

export type ChatState = Readonly<{ status: 'empty' }> | ActiveChat | Readonly<{ status: 'deleted'; id: string }>;

export const initialChatState = (): ChatState => ({ status: 'empty' });

const without = (list: readonly string[], gone: readonly string[]) => list.filter((x) => !gone.includes(x));
const withAdded = (list: readonly string[], added: readonly string[]) => [
  ...list,
  ...added.filter((x, i) => !list.includes(x) && added.indexOf(x) === i),
];

export function evolveChat(state: ChatState, event: ChatEvent): ChatState {
  switch (event.type) {
    case 'ChatCreated': {
      const d = event.data;
      return {
        status: 'active',
        id: d.chatId,
        name: d.name,
        type: d.type,
        participants: d.participants,
        admins: d.admins,
        aiAssistant: d.aiAssistant,
        createdBy: d.createdBy,
        createdAt: d.createdAt,
      };
    }
    case 'ChatDeleted':
      return { status: 'deleted', id: event.data.chatId };
    default:
      break;
  }
  if (state.status !== 'active') return state;
  switch (event.type) {
    case 'ChatRenamed':
      return { ...state, name: event.data.name };
    case 'ChatMembersChanged':
      return { ...state, participants: withAdded(without(state.participants, event.data.removed), event.data.added) };
    case 'ChatAdminsChanged':
      return { ...state, admins: withAdded(without(state.admins, event.data.removed), event.data.added) };
    case 'AiAssistantConfigured': {
      const { chatId: _chatId, ...settings } = event.data;
      return { ...state, aiAssistant: settings };
    }
    default:
      return state;
  }
}
