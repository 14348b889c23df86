import { describe, expect, it } from 'vitest';
import { ForbiddenError, NotFoundError, ValidationError } from '../core/errors.js';
import { decideAiReply } from './ai-assistant.js';
import type { ChatEvent, ChatMessageEvent, ChatState } from './chat.js';
import { chatDefaults, chatMessages } from './chat.schemas.js';
import {
  type ChatCommand,
  type ChatMessageCommand,
  chatDecider,
  decideChatMessage,
  type MessageFacts,
} from './decide.js';

const now = '2026-01-02T10:00:00.000Z';
const as = (id: string) => ({ actor: { id, role: 'tester' as const }, now });

function given(events: readonly ChatEvent[]) {
  const state = events.reduce<ChatState>((s, e) => chatDecider.evolve(s, e), chatDecider.initialState());
  return {
    state,
    when: (command: ChatCommand) => ({
      // biome-ignore lint/suspicious/noThenProperty: the given/when/then reading of decider tests; never awaited
      then(expected: readonly ChatEvent[]) {
        expect(chatDecider.decide(command, state)).toEqual(expected);
      },
      thenThrows: (type: new (...args: any[]) => Error, message: string) => {
        let error: unknown;
        try {
          chatDecider.decide(command, state);
        } catch (e) {
          error = e;
        }
        expect(error).toBeInstanceOf(type);
        expect((error as Error).message).toBe(message);
      },
    }),
  };
}

const created = (over: Partial<Extract<ChatEvent, { type: 'ChatCreated' }>['data']> = {}): ChatEvent => ({
  type: 'ChatCreated',
  data: {
    chatId: 'c1',
    name: 'Team',
    type: 'team',
    participants: ['ann', 'bob'],
    admins: ['ann'],
    aiAssistant: { enabled: false, model: 'gpt-3.5-turbo', systemPrompt: chatDefaults.systemPrompt },
    createdBy: 'ann',
    createdAt: now,
    ...over,
  },
});

const update = (by: string, data: Partial<Extract<ChatCommand, { type: 'UpdateChat' }>['data']>): ChatCommand => ({
  type: 'UpdateChat',
  data: { registeredUserIds: ['ann', 'bob', 'cid', 'dee'], ...data },
  metadata: as(by),
});

describe('chat decider', () => {
  describe('when the chat does not exist', () => {
    it('creates it with the spec defaults, the creator as participant and admin', () => {
      given([])
        .when({
          type: 'CreateChat',
          data: { chatId: 'c1', name: '  Crew  ', registeredUserIds: [] },
          metadata: as('ann'),
        })
        .then([
          {
            type: 'ChatCreated',
            data: {
              chatId: 'c1',
              name: 'Crew',
              type: 'private',
              participants: ['ann'],
              admins: ['ann'],
              aiAssistant: { enabled: false, model: 'gpt-3.5-turbo', systemPrompt: chatDefaults.systemPrompt },
              createdBy: 'ann',
              createdAt: now,
            },
          },
        ]);
    });

    it('starts an ai_assistant chat with the assistant enabled', () => {
      const [event] = chatDecider.decide(
        {
          type: 'CreateChat',
          data: { chatId: 'c1', name: 'Ask', type: 'ai_assistant', registeredUserIds: [] },
          metadata: as('ann'),
        },
        chatDecider.initialState(),
      );
      expect(event?.type === 'ChatCreated' && event.data.aiAssistant.enabled).toBe(true);
    });

    it('adds requested admins as participants', () => {
      const [event] = chatDecider.decide(
        {
          type: 'CreateChat',
          data: { chatId: 'c1', name: 'X', participants: ['bob'], admins: ['cid'], registeredUserIds: ['bob', 'cid'] },
          metadata: as('ann'),
        },
        chatDecider.initialState(),
      );
      expect(event?.data).toMatchObject({ participants: ['ann', 'bob', 'cid'], admins: ['ann', 'cid'] });
    });

    it('refuses a blank name, an unknown type, an unknown model and unregistered users', () => {
      const base = { chatId: 'c1', name: 'X', registeredUserIds: ['bob'] };
      const cases: [Record<string, unknown>, string][] = [
        [{ name: '   ' }, chatMessages.nameRequired],
        [{ type: 'secret' }, chatMessages.typeInvalid],
        [{ aiAssistant: { model: 'gpt-5' } }, chatMessages.modelInvalid],
        [{ participants: ['ghost'] }, chatMessages.unknownUsers],
      ];
      for (const [over, message] of cases) {
        given([])
          .when({ type: 'CreateChat', data: { ...base, ...over } as never, metadata: as('ann') })
          .thenThrows(ValidationError, message);
      }
    });
  });

  describe('when the chat is active', () => {
    it('hides a private or team chat from non-members (404)', () => {
      given([created()])
        .when(update('cid', { name: 'Y' }))
        .thenThrows(NotFoundError, chatMessages.notFound);
    });

    it('lets only chat admins edit or delete (403)', () => {
      given([created()])
        .when(update('bob', { name: 'Y' }))
        .thenThrows(ForbiddenError, chatMessages.onlyAdminsModify);
      given([created()])
        .when({ type: 'DeleteChat', data: {}, metadata: as('bob') })
        .thenThrows(ForbiddenError, chatMessages.onlyAdminsDelete);
    });

    it('refuses a type change, accepts the same type', () => {
      given([created()])
        .when(update('ann', { type: 'public' }))
        .thenThrows(ValidationError, chatMessages.typeImmutable);
      given([created()])
        .when(update('ann', { type: 'team' }))
        .then([]);
    });

    it('making someone an admin adds them as a participant', () => {
      given([created()])
        .when(update('ann', { admins: ['ann', 'cid'] }))
        .then([
          { type: 'ChatMembersChanged', data: { chatId: 'c1', added: ['cid'], removed: [] } },
          { type: 'ChatAdminsChanged', data: { chatId: 'c1', added: ['cid'], removed: [] } },
        ]);
    });

    it('removing a participant removes their admin right', () => {
      given([created({ admins: ['ann', 'bob'] })])
        .when(update('ann', { participants: ['ann'], admins: ['ann', 'bob'] }))
        .then([
          { type: 'ChatMembersChanged', data: { chatId: 'c1', added: [], removed: ['bob'] } },
          { type: 'ChatAdminsChanged', data: { chatId: 'c1', added: [], removed: ['bob'] } },
        ]);
    });

    it('keeps at least one admin', () => {
      given([created()])
        .when(update('ann', { admins: [] }))
        .thenThrows(ValidationError, chatMessages.lastAdmin);
      given([created()])
        .when(update('ann', { participants: ['bob'] }))
        .thenThrows(ValidationError, chatMessages.lastAdmin);
    });

    it('refuses to add unregistered users', () => {
      given([created()])
        .when(update('ann', { participants: ['ann', 'bob', 'ghost'] }))
        .thenThrows(ValidationError, chatMessages.unknownUsers);
    });

    it('records AI settings only when they change', () => {
      given([created()])
        .when(update('ann', { aiAssistant: { enabled: false } }))
        .then([]);
      given([created()])
        .when(update('ann', { aiAssistant: { enabled: true, model: 'gpt-4' } }))
        .then([
          {
            type: 'AiAssistantConfigured',
            data: { chatId: 'c1', enabled: true, model: 'gpt-4', systemPrompt: chatDefaults.systemPrompt },
          },
        ]);
    });

    it('lets anyone join a public chat, and nobody join a private one', () => {
      given([created({ type: 'public' })])
        .when({ type: 'JoinChat', data: {}, metadata: as('cid') })
        .then([{ type: 'ChatMembersChanged', data: { chatId: 'c1', added: ['cid'], removed: [] } }]);
      given([created({ type: 'public' })])
        .when({ type: 'JoinChat', data: {}, metadata: as('bob') })
        .then([]);
      given([created({ type: 'private' })])
        .when({ type: 'JoinChat', data: {}, metadata: as('cid') })
        .thenThrows(NotFoundError, chatMessages.notFound);
    });
  });

  describe('when the chat was deleted', () => {
    it('is gone for everyone', () => {
      given([created(), { type: 'ChatDeleted', data: { chatId: 'c1' } }])
        .when(update('ann', { name: 'Y' }))
        .thenThrows(NotFoundError, chatMessages.notFound);
    });
  });
});

describe('chat message rules', () => {
  const chat = given([created()]).state;
  const decide = (command: ChatMessageCommand, state: ChatState = chat): readonly ChatMessageEvent[] =>
    decideChatMessage(command, state);
  const send = (by: string, over: Partial<Extract<ChatMessageCommand, { type: 'SendMessage' }>['data']> = {}) =>
    ({
      type: 'SendMessage',
      data: {
        messageId: 'm1',
        content: 'hi',
        attachments: [],
        mentions: [],
        replyTo: null,
        replyTarget: null,
        ...over,
      },
      metadata: as(by),
    }) as const;
  const facts = (over: Partial<MessageFacts> = {}): MessageFacts => ({
    messageId: 'm0',
    chatId: 'c1',
    senderId: 'bob',
    isDeleted: false,
    ...over,
  });

  it('sends trimmed text with mentions of members and a reply in the same chat', () => {
    expect(
      decide(send('bob', { content: ' hi @ann ', mentions: ['ann', 'ann'], replyTo: 'm0', replyTarget: facts() })),
    ).toEqual([
      {
        type: 'MessageSent',
        data: {
          chatId: 'c1',
          messageId: 'm1',
          senderId: 'bob',
          content: 'hi @ann',
          attachments: [],
          mentions: ['ann'],
          replyTo: 'm0',
        },
      },
    ]);
  });

  it('refuses blank messages, mentions of non-members and replies to another chat', () => {
    expect(() => decide(send('bob', { content: '  ' }))).toThrow(chatMessages.messageEmpty);
    expect(() => decide(send('bob', { mentions: ['cid'] }))).toThrow(chatMessages.mentionsNotMembers);
    expect(() => decide(send('bob', { replyTo: 'm0', replyTarget: facts({ chatId: 'c2' }) }))).toThrow(
      chatMessages.replyNotInChat,
    );
    expect(() => decide(send('bob', { replyTo: 'm0', replyTarget: null }))).toThrow(chatMessages.replyNotInChat);
  });

  it('accepts an attachment without text', () => {
    const attachment = { filename: 'a.png', path: '/uploads/chat/a.png', mimetype: 'image/png', size: 3 };
    expect(decide(send('bob', { content: '', attachments: [attachment] }))).toHaveLength(1);
  });

  it('hides the chat from non-members and asks public readers to join first', () => {
    expect(() => decide(send('cid'))).toThrow(NotFoundError);
    const publicChat = given([created({ type: 'public' })]).state;
    expect(() => decide(send('cid'), publicChat)).toThrow(chatMessages.joinToSend);
  });

  it('lets the sender or a chat admin delete a message, once', () => {
    const del = (by: string, target: MessageFacts | null) =>
      ({ type: 'DeleteMessage', data: { messageId: 'm0', target }, metadata: as(by) }) as const;
    expect(decide(del('bob', facts()))).toEqual([
      { type: 'MessageDeleted', data: { chatId: 'c1', messageId: 'm0', deletedBy: 'bob' } },
    ]);
    expect(decide(del('ann', facts()))).toHaveLength(1);
    expect(() => decide(del('bob', facts({ senderId: 'ann' })))).toThrow(ForbiddenError);
    expect(() => decide(del('bob', null))).toThrow(chatMessages.messageNotFound);
    expect(decide(del('bob', facts({ isDeleted: true })))).toEqual([]);
  });

  it('marks a chat read for participants only', () => {
    expect(decide({ type: 'MarkChatRead', data: {}, metadata: as('bob') })).toEqual([
      { type: 'ChatReadMarked', data: { chatId: 'c1', userId: 'bob' } },
    ]);
    const publicChat = given([created({ type: 'public' })]).state;
    expect(decide({ type: 'MarkChatRead', data: {}, metadata: as('cid') }, publicChat)).toEqual([]);
  });
});

describe('AI reply', () => {
  const message = {
    chatId: 'c1',
    messageId: 'm1',
    senderId: 'ann',
    content: 'hi',
    attachments: [],
    mentions: [],
    replyTo: null,
  };
  it('answers only when the assistant was enabled', () => {
    const off = given([created()]).state;
    const on = given([created({ aiAssistant: { enabled: true, model: 'gpt-4', systemPrompt: 'x' } })]).state;
    expect(decideAiReply(off, message, { messageId: 'r1', content: 'no provider' })).toBeNull();
    expect(decideAiReply(on, message, { messageId: 'r1', content: 'no provider' })).toEqual({
      type: 'AiMessagePosted',
      data: { chatId: 'c1', messageId: 'r1', content: 'no provider', replyTo: 'm1', model: 'gpt-4' },
    });
  });
});
