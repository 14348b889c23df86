import { describe, expect, it } from 'vitest';
import { ForbiddenError, NotFoundError, ValidationError } from '../core/errors.js';
import type { ChatEvent, ChatState } from './chat.js';
import { chatDefaults, chatMessages } from './chat.schemas.js';
import { type ChatCommand, chatDecider } from './decide.js';

const now = '2026-01-02T10:00:00.000Z';
const as = (id: string) => ({ actor: { id, role: 'tester' as const }, now });

function given(events: readonly ChatEvent[]) {
  const state = events.reduce<ChatState>((s, e) => chatDecider.evolve(s, e), chatDecider.initialState());
  return {
    state,
    when: (command: ChatCommand) => ({
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
