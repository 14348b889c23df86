import { PersistentMap } from '../core/persistent-map.js';
import type { ChatMessageEvent } from './chat.js';
import type { Attachment } from './chat.schemas.js';

/**
 * The state of `chatmsgs-{id}`, a chat's timeline: what the write side must know to
 * decide on messages without asking any read model. Who sent each message, whether
 * it is deleted or answered, and how far each reader has read. Built by folding the
 * whole stream; the command handler keeps it per process and folds only new events.
 */
export type TimelineMessage = Readonly<{
  messageId: string;
  /** null for the assistant's messages. */
  senderId: string | null;
  content: string;
  attachments: readonly Attachment[];
  mentions: readonly string[];
  replyTo: string | null;
  isDeleted: boolean;
  isAIMessage: boolean;
  /** The message's revision in `chatmsgs-{id}`. */
  revision: number;
  createdAt: string;
  /** A human message the assistant has answered. */
  isAnswered: boolean;
}>;

export type TimelineState = Readonly<{
  /** Events folded so far: the next event's revision. */
  eventCount: number;
  messages: PersistentMap<TimelineMessage>;
  /** Messages (human and assistant) in stream order: index → message id. */
  order: PersistentMap<string>;
  messageCount: number;
  /** Per sender ('' for the assistant), the revision of their newest message. */
  latestBySender: Readonly<Record<string, number>>;
  /** Per reader, the revision up to which they have read (inclusive). */
  readThrough: Readonly<Record<string, number>>;
}>;

export const initialTimelineState = (): TimelineState => ({
  eventCount: 0,
  messages: PersistentMap.empty(),
  order: PersistentMap.empty(),
  messageCount: 0,
  latestBySender: {},
  readThrough: {},
});

/** Events as evolve sees them: from the store they carry metadata (the time). */
type TimelineEventWithMeta = ChatMessageEvent & { readonly metadata?: { readonly occurredAt: string } };

/** Pure and total: each event counts (revisions are positions in the stream). */
export function evolveTimeline(state: TimelineState, event: TimelineEventWithMeta): TimelineState {
  const revision = state.eventCount;
  const next = { ...state, eventCount: revision + 1 };
  const at = event.metadata?.occurredAt ?? new Date(0).toISOString();
  switch (event.type) {
    case 'MessageSent': {
      const d = event.data;
      if (state.messages.has(d.messageId)) return next;
      return {
        ...next,
        messages: state.messages.set(d.messageId, {
          messageId: d.messageId,
          senderId: d.senderId,
          content: d.content,
          attachments: d.attachments,
          mentions: d.mentions,
          replyTo: d.replyTo,
          isDeleted: false,
          isAIMessage: false,
          revision,
          createdAt: at,
          isAnswered: false,
        }),
        ...appended(state, d.messageId),
        latestBySender: { ...state.latestBySender, [d.senderId]: revision },
      };
    }
    case 'AiMessagePosted': {
      const d = event.data;
      if (state.messages.has(d.messageId)) return next;
      let messages = state.messages.set(d.messageId, {
        messageId: d.messageId,
        senderId: null,
        content: d.content,
        attachments: [],
        mentions: [],
        replyTo: d.replyTo,
        isDeleted: false,
        isAIMessage: true,
        revision,
        createdAt: at,
        isAnswered: false,
      });
      const question = messages.get(d.replyTo);
      if (question) messages = messages.set(d.replyTo, { ...question, isAnswered: true });
      return {
        ...next,
        messages,
        ...appended(state, d.messageId),
        latestBySender: { ...state.latestBySender, '': revision },
      };
    }
    case 'MessageDeleted': {
      const message = state.messages.get(event.data.messageId);
      if (!message) return next;
      return {
        ...next,
        messages: state.messages.set(message.messageId, { ...message, isDeleted: true, content: '', attachments: [] }),
      };
    }
    case 'ChatReadMarked': {
      const d = event.data;
      // Markers written before `throughRevision` existed mean "everything before me".
      const through = d.throughRevision ?? revision - 1;
      if ((state.readThrough[d.userId] ?? -1) >= through) return next;
      return { ...next, readThrough: { ...state.readThrough, [d.userId]: through } };
    }
    default:
      return next;
  }
}

function appended(state: TimelineState, messageId: string) {
  return { order: state.order.set(String(state.messageCount), messageId), messageCount: state.messageCount + 1 };
}

/** The newest message, deleted or not. */
export function lastMessageOf(state: TimelineState): TimelineMessage | null {
  const id = state.order.get(String(state.messageCount - 1));
  return id === undefined ? null : (state.messages.get(id) ?? null);
}

/** Messages from others since the reader last read, not deleted (walks back from the newest). */
export function unreadCountFor(state: TimelineState, userId: string): number {
  const through = state.readThrough[userId] ?? -1;
  let count = 0;
  for (let index = state.messageCount - 1; index >= 0; index--) {
    const message = state.messages.get(state.order.get(String(index)) ?? '');
    if (!message || message.revision <= through) break;
    if (message.senderId !== userId && !message.isDeleted) count++;
  }
  return count;
}

/** Whether someone else has written since the reader last marked the chat read. */
export function hasUnreadFor(state: TimelineState, userId: string): boolean {
  const through = state.readThrough[userId] ?? -1;
  return Object.entries(state.latestBySender).some(([sender, revision]) => sender !== userId && revision > through);
}
