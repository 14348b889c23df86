import { describe, expect, it } from 'vitest';
import { ForbiddenError, NotFoundError, ValidationError } from '../core/errors.js';
import type { ChatEvent, ChatMessageEvent, ChatState } from './chat.js';
import { chatDefaults, chatMessages } from './chat.schemas.js';
import { chatDecider } from './decide.js';
import { evolveTimeline, hasUnreadFor, initialTimelineState, lastMessageOf, unreadCountFor } from './timeline.js';
import { decideTimeline, type TimelineCommand } from './timeline-decide.js';

const now = '2026-01-02T10:00:00.000Z';
const as = (id: string) => ({ actor: { id, role: 'tester' as const }, now });

const chatCreated = (over: Partial<Extract<ChatEvent, { type: 'ChatCreated' }>['data']> = {}): ChatEvent => ({
  type: 'ChatCreated',
  data: {
    chatId: 'c1',
    name: 'Crew',
    type: 'team',
    participants: ['ann', 'bob'],
    admins: ['ann'],
    aiAssistant: { enabled: false, model: 'gpt-3.5-turbo', systemPrompt: chatDefaults.systemPrompt },
    createdBy: 'ann',
    createdAt: now,
    ...over,
  },
});
const chatOf = (...events: ChatEvent[]): ChatState =>
  events.reduce<ChatState>((s, e) => chatDecider.evolve(s, e), chatDecider.initialState());

const sent = (messageId: string, senderId: string, over: { replyTo?: string | null } = {}): ChatMessageEvent => ({
  type: 'MessageSent',
  data: {
    chatId: 'c1',
    messageId,
    senderId,
    content: `text of ${messageId}`,
    attachments: [],
    mentions: [],
    replyTo: null,
    ...over,
  },
});

/** given(chat, timeline events).when(command).then(events) */
function given(chat: ChatState, events: readonly ChatMessageEvent[] = []) {
  const timeline = events.reduce(evolveTimeline, initialTimelineState());
  const run = (command: TimelineCommand) => () => decideTimeline(command, chat, timeline);
  return {
    timeline,
    when: (command: TimelineCommand) => ({
      then: (expected: readonly ChatMessageEvent[]) => expect(run(command)()).toEqual(expected),
      thenThrows: (type: new (...args: any[]) => Error, message: string) => {
        expect(run(command)).toThrow(message);
        try {
          run(command)();
        } catch (error) {
          expect(error).toBeInstanceOf(type);
        }
      },
    }),
  };
}

const send = (by: string, over: Partial<Extract<TimelineCommand, { type: 'SendMessage' }>['data']> = {}) =>
  ({
    type: 'SendMessage',
    data: { messageId: 'm1', content: 'hi', attachments: [], mentions: [], replyTo: null, ...over },
    metadata: as(by),
  }) as const;
const del = (by: string, messageId = 'm0') =>
  ({ type: 'DeleteMessage', data: { messageId }, metadata: as(by) }) as const;
const markRead = (by: string) => ({ type: 'MarkChatRead', data: {}, metadata: as(by) }) as const;
const aiReply = (replyTo: string) =>
  ({
    type: 'PostAiReply',
    data: { messageId: `r-${replyTo}`, replyTo, content: 'an answer' },
    metadata: { actor: null, now },
  }) as const;

const team = chatOf(chatCreated());

describe('chat timeline', () => {
  describe('sending', () => {
    it('sends trimmed text with mentions of members and a reply to a message of the chat', () => {
      given(team, [sent('m0', 'ann')])
        .when(send('bob', { content: ' hi @ann ', mentions: ['ann', 'ann'], replyTo: 'm0' }))
        .then([
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

    it('refuses blank messages, mentions of non-members and replies to a message not in the chat', () => {
      given(team)
        .when(send('bob', { content: '  ' }))
        .thenThrows(ValidationError, chatMessages.messageEmpty);
      given(team)
        .when(send('bob', { mentions: ['cid'] }))
        .thenThrows(ValidationError, chatMessages.mentionsNotMembers);
      given(team)
        .when(send('bob', { replyTo: 'm0' }))
        .thenThrows(ValidationError, chatMessages.replyNotInChat);
    });

    it('accepts an attachment without text', () => {
      const attachment = { filename: 'a.png', path: '/uploads/chat/a.png', mimetype: 'image/png', size: 3 };
      expect(given(team).timeline.messageCount).toBe(0);
      given(team)
        .when(send('bob', { content: '', attachments: [attachment] }))
        .then([
          {
            type: 'MessageSent',
            data: {
              chatId: 'c1',
              messageId: 'm1',
              senderId: 'bob',
              content: '',
              attachments: [attachment],
              mentions: [],
              replyTo: null,
            },
          },
        ]);
    });

    it('hides the chat from non-members and asks public readers to join first', () => {
      given(team).when(send('cid')).thenThrows(NotFoundError, chatMessages.notFound);
      given(chatOf(chatCreated({ type: 'public' })))
        .when(send('cid'))
        .thenThrows(ForbiddenError, chatMessages.joinToSend);
    });

    it('appends nothing for the same message again (a retried send)', () => {
      given(team, [sent('m1', 'bob')])
        .when(send('bob'))
        .then([]);
    });
  });

  describe('deleting', () => {
    it('lets the sender or a chat admin delete a message, once', () => {
      const deleted = (by: string): ChatMessageEvent[] => [
        { type: 'MessageDeleted', data: { chatId: 'c1', messageId: 'm0', deletedBy: by } },
      ];
      given(team, [sent('m0', 'bob')])
        .when(del('bob'))
        .then(deleted('bob'));
      given(team, [sent('m0', 'bob')])
        .when(del('ann'))
        .then(deleted('ann'));
      given(team, [sent('m0', 'ann')])
        .when(del('bob'))
        .thenThrows(ForbiddenError, chatMessages.cannotDeleteMessage);
      given(team).when(del('bob')).thenThrows(NotFoundError, chatMessages.messageNotFound);
      given(team, [sent('m0', 'bob'), ...deleted('bob')])
        .when(del('bob'))
        .then([]);
    });
  });

  describe('reading', () => {
    it('records how far the reader got, and nothing when nobody wrote since', () => {
      const events = [sent('m0', 'ann'), sent('m1', 'bob')];
      given(team, events)
        .when(markRead('bob'))
        .then([{ type: 'ChatReadMarked', data: { chatId: 'c1', userId: 'bob', throughRevision: 1 } }]);
      const read: ChatMessageEvent = {
        type: 'ChatReadMarked',
        data: { chatId: 'c1', userId: 'bob', throughRevision: 1 },
      };
      given(team, [...events, read])
        .when(markRead('bob'))
        .then([]);
      // Only one's own messages since: nothing unread.
      given(team, [...events, read, sent('m2', 'bob')])
        .when(markRead('bob'))
        .then([]);
      given(chatOf(chatCreated({ type: 'public' })), events)
        .when(markRead('cid'))
        .then([]);
    });

    it('counts unread messages from others, not deleted, after the reader’s mark', () => {
      const { timeline } = given(team, [
        sent('m0', 'ann'),
        { type: 'ChatReadMarked', data: { chatId: 'c1', userId: 'bob', throughRevision: 0 } },
        sent('m1', 'ann'),
        sent('m2', 'bob'),
        sent('m3', 'ann'),
        { type: 'MessageDeleted', data: { chatId: 'c1', messageId: 'm3', deletedBy: 'ann' } },
        sent('m4', 'ann'),
      ]);
      expect(unreadCountFor(timeline, 'bob')).toBe(2);
      expect(hasUnreadFor(timeline, 'bob')).toBe(true);
      expect(unreadCountFor(timeline, 'ann')).toBe(1);
      expect(lastMessageOf(timeline)?.messageId).toBe('m4');
    });

    it('reads a version 1 marker as everything before it', () => {
      const { timeline } = given(team, [
        sent('m0', 'ann'),
        { type: 'ChatReadMarked', data: { chatId: 'c1', userId: 'bob' } },
      ]);
      expect(unreadCountFor(timeline, 'bob')).toBe(0);
    });
  });

  describe('the assistant', () => {
    const withAi = chatOf(chatCreated({ aiAssistant: { enabled: true, model: 'gpt-4', systemPrompt: 'x' } }));

    it('answers a human message once, only when the assistant was enabled', () => {
      given(withAi, [sent('m1', 'ann')])
        .when(aiReply('m1'))
        .then([
          {
            type: 'AiMessagePosted',
            data: { chatId: 'c1', messageId: 'r-m1', content: 'an answer', replyTo: 'm1', model: 'gpt-4' },
          },
        ]);
      given(team, [sent('m1', 'ann')])
        .when(aiReply('m1'))
        .then([]);
      const answered: ChatMessageEvent = {
        type: 'AiMessagePosted',
        data: { chatId: 'c1', messageId: 'r-m1', content: 'an answer', replyTo: 'm1', model: 'gpt-4' },
      };
      given(withAi, [sent('m1', 'ann'), answered])
        .when(aiReply('m1'))
        .then([]);
      given(withAi, [sent('m1', 'ann'), answered])
        .when(aiReply('r-m1'))
        .then([]);
      given(withAi).when(aiReply('m9')).then([]);
    });
  });
});
