import { ForbiddenError, NotFoundError, ValidationError } from '../core/errors.js';
import { assertNever, type Command, type Decider } from '../core/event.js';
import { rolePermissions } from '../users/permissions.js';
import { userMessages } from '../users/user-vocabulary.js';
import { type ActiveChat, type ChatEvent, type ChatState, evolveChat, initialChatState } from './chat.js';
import {
  type AiAssistantSettings,
  aiModels,
  type ChatType,
  chatDefaults,
  chatLimits,
  chatMessages,
  chatTypes,
} from './chat.schemas.js';
import { chatPermissions } from './permissions.js';

type AiInput = Readonly<{ enabled?: boolean; model?: string; systemPrompt?: string }>;
/** Model names beyond the spec's four that a configured provider lists (the caller looks them up). */
type ProviderModels = Readonly<{ providerModels?: readonly string[] }>;

export type CreateChat = Command<
  'CreateChat',
  {
    chatId: string;
    name: string;
    type?: string;
    participants?: readonly string[];
    admins?: readonly string[];
    aiAssistant?: AiInput;
    /** Which of the referenced user ids are registered users (looked up by the caller). */
    registeredUserIds: readonly string[];
  } & ProviderModels
>;
/** The edited chat: absent fields stay as they are; lists replace the current ones. */
export type UpdateChat = Command<
  'UpdateChat',
  {
    name?: string;
    type?: string;
    participants?: readonly string[];
    admins?: readonly string[];
    aiAssistant?: AiInput;
    registeredUserIds: readonly string[];
  } & ProviderModels
>;
export type DeleteChat = Command<'DeleteChat', Record<string, never>>;
export type JoinChat = Command<'JoinChat', Record<string, never>>;
export type ChatCommand = CreateChat | UpdateChat | DeleteChat | JoinChat;

const uniq = (ids: readonly string[]) => [...new Set(ids)];
const minus = (a: readonly string[], b: readonly string[]) => a.filter((x) => !b.includes(x));

/** The acting user; auditors read but never create, change or join chats. */
function actorId(command: Command): string {
  const actor = command.metadata.actor;
  if (!actor) throw new ForbiddenError('Sign in to use chats');
  if (rolePermissions.isReadOnly(actor)) throw new ForbiddenError(userMessages.readOnlyRole);
  return actor.id;
}

/** The chat as `userId` may know it: 404 when it does not exist for them. */
export function visibleChat(state: ChatState, userId: string): ActiveChat {
  if (state.status !== 'active' || !chatPermissions.canSee(userId, state))
    throw new NotFoundError(chatMessages.notFound);
  return state;
}

function managedChat(state: ChatState, userId: string, refusal: string): ActiveChat {
  const chat = visibleChat(state, userId);
  if (!chatPermissions.canManage(userId, chat)) throw new ForbiddenError(refusal);
  return chat;
}

function validName(name: string): string {
  const trimmed = name.trim();
  if (!trimmed) throw ValidationError.field('name', chatMessages.nameRequired);
  if (trimmed.length > chatLimits.nameMax) throw ValidationError.field('name', chatMessages.nameTooLong);
  return trimmed;
}

function validAi(
  input: AiInput | undefined,
  current: AiAssistantSettings,
  providerModels: readonly string[] = [],
): AiAssistantSettings {
  if (!input) return current;
  const model = input.model ?? current.model;
  if (!(aiModels as readonly string[]).includes(model) && !providerModels.includes(model))
    throw ValidationError.field('aiAssistant.model', chatMessages.modelInvalid);
  let systemPrompt = current.systemPrompt;
  if (input.systemPrompt !== undefined) {
    // A cleared prompt falls back to the default rather than leaving the model without one.
    systemPrompt = input.systemPrompt.trim() || chatDefaults.systemPrompt;
    if (systemPrompt.length > chatLimits.systemPromptMax) {
      throw ValidationError.field('aiAssistant.systemPrompt', chatMessages.promptTooLong);
    }
  }
  return { enabled: input.enabled ?? current.enabled, model: model as AiAssistantSettings['model'], systemPrompt };
}

function assertRegistered(ids: readonly string[], registered: readonly string[]): void {
  if (ids.some((id) => !registered.includes(id)))
    throw ValidationError.field('participants', chatMessages.unknownUsers);
}

function create(command: CreateChat, state: ChatState): ChatEvent[] {
  const creator = actorId(command);
  if (state.status !== 'empty') throw new ValidationError('Chat already exists');
  const d = command.data;
  const name = validName(d.name);
  const type = (d.type ?? chatDefaults.type) as ChatType;
  if (!chatTypes.includes(type)) throw ValidationError.field('type', chatMessages.typeInvalid);
  const admins = uniq([creator, ...(d.admins ?? [])]);
  // Admins are always participants; the creator is both.
  const participants = uniq([creator, ...(d.participants ?? []), ...admins]);
  assertRegistered(participants, [creator, ...d.registeredUserIds]);
  const ai = validAi(
    d.aiAssistant,
    { enabled: false, model: chatDefaults.aiModel, systemPrompt: chatDefaults.systemPrompt },
    d.providerModels,
  );
  return [
    {
      type: 'ChatCreated',
      data: {
        chatId: d.chatId,
        name,
        type,
        participants,
        admins,
        // An AI-assistant chat is pointless without its assistant: it starts enabled.
        aiAssistant: type === 'ai_assistant' ? { ...ai, enabled: true } : ai,
        createdBy: creator,
        createdAt: command.metadata.now,
      },
    },
  ];
}

function update(command: UpdateChat, state: ChatState): ChatEvent[] {
  const chat = managedChat(state, actorId(command), chatMessages.onlyAdminsModify);
  const d = command.data;
  if (d.type !== undefined && d.type !== chat.type) throw ValidationError.field('type', chatMessages.typeImmutable);
  const events: ChatEvent[] = [];

  if (d.name !== undefined) {
    const name = validName(d.name);
    if (name !== chat.name) events.push({ type: 'ChatRenamed', data: { chatId: chat.id, name } });
  }

  const wanted = d.participants === undefined ? chat.participants : uniq(d.participants);
  const droppedParticipants = minus(chat.participants, wanted);
  let admins: string[];
  if (d.admins === undefined) {
    admins = minus(chat.admins, droppedParticipants);
  } else {
    const requested = uniq(d.admins);
    const granted = minus(requested, chat.admins);
    // Removing a participant removes their admin right, unless this very edit grants it.
    admins = requested.filter((a) => !droppedParticipants.includes(a) || granted.includes(a));
  }
  if (admins.length === 0) throw ValidationError.field('admins', chatMessages.lastAdmin);
  // Making someone an admin makes them a participant.
  const participants = uniq([...wanted, ...admins]);

  const joined = minus(participants, chat.participants);
  const left = minus(chat.participants, participants);
  assertRegistered(joined, d.registeredUserIds);
  if (joined.length > 0 || left.length > 0) {
    events.push({ type: 'ChatMembersChanged', data: { chatId: chat.id, added: joined, removed: left } });
  }
  const promoted = minus(admins, chat.admins);
  const demoted = minus(chat.admins, admins);
  if (promoted.length > 0 || demoted.length > 0) {
    events.push({ type: 'ChatAdminsChanged', data: { chatId: chat.id, added: promoted, removed: demoted } });
  }

  const ai = validAi(d.aiAssistant, chat.aiAssistant, d.providerModels);
  if (
    ai.enabled !== chat.aiAssistant.enabled ||
    ai.model !== chat.aiAssistant.model ||
    ai.systemPrompt !== chat.aiAssistant.systemPrompt
  ) {
    events.push({ type: 'AiAssistantConfigured', data: { chatId: chat.id, ...ai } });
  }
  return events;
}

function remove(command: DeleteChat, state: ChatState): ChatEvent[] {
  const chat = managedChat(state, actorId(command), chatMessages.onlyAdminsDelete);
  return [{ type: 'ChatDeleted', data: { chatId: chat.id } }];
}

function join(command: JoinChat, state: ChatState): ChatEvent[] {
  const userId = actorId(command);
  const chat = visibleChat(state, userId);
  if (!chatPermissions.canJoin(userId, chat)) return [];
  return [{ type: 'ChatMembersChanged', data: { chatId: chat.id, added: [userId], removed: [] } }];
}

export function decideChat(command: ChatCommand, state: ChatState): ChatEvent[] {
  switch (command.type) {
    case 'CreateChat':
      return create(command, state);
    case 'UpdateChat':
      return update(command, state);
    case 'DeleteChat':
      return remove(command, state);
    case 'JoinChat':
      return join(command, state);
    default:
      return assertNever(command);
  }
}

export const chatDecider: Decider<ChatState, ChatCommand, ChatEvent> = {
  initialState: initialChatState,
  evolve: evolveChat,
  decide: decideChat,
};
