import { streams } from '@bugtrail/domain';
import { projectionSpec, recorded } from '@bugtrail/testing/projections';
import { describe, expect, it } from 'vitest';
import { chatsProjection } from './chats.projection.js';

const CHAT = 'chat-1';
const nothingStored = () => ({ chats: [], members: [] });
const { given } = projectionSpec(chatsProjection, nothingStored);

const created = (type: 'private' | 'public' = 'private') =>
  recorded(
    'ChatCreated',
    {
      chatId: CHAT,
      name: 'Release 2.4',
      type,
      participants: ['ann', 'bob'],
      admins: ['ann'],
      aiAssistant: { enabled: false, model: 'gpt-4o', systemPrompt: 'Be brief.' },
      createdBy: 'ann',
      createdAt: '2026-11-29T09:00:00.000Z',
    },
    { streamId: streams.chat(CHAT), occurredAt: '2026-11-29T09:00:00.000Z' },
  );
const sent = (messageId: string, revision: number, content = 'Shipping at noon') =>
  recorded(
    'MessageSent',
    { chatId: CHAT, messageId, senderId: 'bob', content, attachments: [], mentions: [], replyTo: null },
    { streamId: streams.chatMessages(CHAT), revision, occurredAt: '2026-11-29T10:00:00.000Z' },
  );

describe('chats, one handler per event', () => {
  it('ChatCreated: the chat row, its participants as members who have read nothing, its audience told', () => {
    const batch = given().when(created()).changes();
    expect(batch.chats.get(CHAT)).toMatchObject({
      name: 'Release 2.4',
      participants: ['ann', 'bob'],
      last_revision: -1,
    });
    expect([...batch.memberUpserts.values()]).toEqual([
      { chat_id: CHAT, user_id: 'ann', read_revision: -1 },
      { chat_id: CHAT, user_id: 'bob', read_revision: -1 },
    ]);
    expect(batch.topics()).toEqual([`chat:${CHAT}|ann,bob`]);
  });

  it('MessageSent: a timeline row, and the chat’s last message and revision', () => {
    const batch = given(created()).when(sent('m1', 0)).changes();
    expect(batch.newMessages.get('m1')).toMatchObject({ chat_id: CHAT, sender_id: 'bob', revision: 0, is_ai: false });
    expect(batch.chats.get(CHAT)).toMatchObject({
      last_message_id: 'm1',
      last_message_content: 'Shipping at noon',
      last_revision: 0,
    });
  });

  it('AiMessagePosted: the assistant’s row, with no sender', () => {
    const answer = recorded(
      'AiMessagePosted',
      { chatId: CHAT, messageId: 'm2', content: 'Noted.', replyTo: 'm1', model: 'gpt-4o' },
      { streamId: streams.chatMessages(CHAT), revision: 1 },
    );
    const batch = given(created(), sent('m1', 0)).when(answer).changes();
    expect(batch.newMessages.get('m2')).toMatchObject({ sender_id: null, is_ai: true, reply_to: 'm1' });
    expect(batch.chats.get(CHAT)).toMatchObject({ last_message_is_ai: true, last_revision: 1 });
  });

  it('MessageDeleted: a message of the same batch loses its content; an older one is erased when written', () => {
    const deleted = (messageId: string, revision: number) =>
      recorded(
        'MessageDeleted',
        { chatId: CHAT, messageId, deletedBy: 'bob' },
        { streamId: streams.chatMessages(CHAT), revision },
      );
    const batch = given(created(), sent('m1', 0)).when(deleted('m1', 1), deleted('m0', 2)).changes();
    expect(batch.newMessages.get('m1')).toMatchObject({ is_deleted: true, content: '' });
    expect([...batch.erasedMessages]).toEqual(['m0']);
    expect(batch.chats.get(CHAT)).toMatchObject({ last_message_is_deleted: true, last_message_content: '' });
  });

  it('ChatReadMarked: the reader’s read revision, heard by the reader alone', () => {
    const read = recorded(
      'ChatReadMarked',
      { chatId: CHAT, userId: 'bob', throughRevision: 0 },
      { streamId: streams.chatMessages(CHAT), revision: 1 },
    );
    const batch = given(created(), sent('m1', 0)).when(read).changes();
    expect(batch.memberUpserts.get(`${CHAT}\u0000bob`)).toEqual({ chat_id: CHAT, user_id: 'bob', read_revision: 0 });
    expect(batch.readerTopics).toEqual(new Set([`chat:${CHAT}|bob`]));
  });

  it('ChatMembersChanged: the removed still hear of their removal; a newcomer starts with the history read', () => {
    const changed = recorded(
      'ChatMembersChanged',
      { chatId: CHAT, added: ['cai'], removed: ['bob'] },
      { streamId: streams.chat(CHAT), revision: 1 },
    );
    const batch = given(created(), sent('m1', 0)).when(changed).changes();
    expect(batch.chats.get(CHAT)?.participants).toEqual(['ann', 'cai']);
    expect(batch.memberUpserts.get(`${CHAT}\u0000cai`)?.read_revision).toBe(0);
    expect([...batch.memberDeletes.keys()]).toEqual([`${CHAT}\u0000bob`]);
    expect(batch.topics()).toEqual([`chat:${CHAT}|ann,bob,cai`]);
  });

  it('ChatDeleted: nothing of the chat is written, and those who saw it are told', () => {
    const deleted = recorded('ChatDeleted', { chatId: CHAT }, { streamId: streams.chat(CHAT), revision: 1 });
    const batch = given(created(), sent('m1', 0)).when(deleted).changes();
    expect(batch.chats.has(CHAT)).toBe(false);
    expect(batch.newMessages.size).toBe(0);
    expect(batch.memberUpserts.size).toBe(0);
    expect(batch.deletedChats).toEqual(new Set([CHAT]));
    expect(batch.topics()).toEqual([`chat:${CHAT}|ann,bob`]);
  });

  it('public chats are heard by everyone; events of unknown chats and of other streams change nothing', () => {
    expect(given().when(created('public')).changes().topics()).toEqual([`chat:${CHAT}|*`]);
    const elsewhere = recorded('ChatRenamed', { chatId: CHAT, name: 'Renamed' }, { streamId: 'bug-1' });
    const unknown = recorded(
      'ChatRenamed',
      { chatId: 'chat-9', name: 'Renamed' },
      { streamId: streams.chat('chat-9') },
    );
    const batch = given().when(elsewhere, unknown).changes();
    expect(batch.dirtyChats.size).toBe(0);
    expect(batch.topics()).toEqual([]);
  });
});
