import { type Attachment, eventsOf, isEvent, streams, type TimelineState } from '@bugtrail/domain';
import type { EventStore } from '@bugtrail/eventstore';
import { type BlobStore, isPublicUpload, type Logger, uploadKeyOf } from '@bugtrail/platform';

/**
 * A deleted message or chat takes its files with it (api.md "Chat attachments"). The
 * files go after the delete's events are stored, so a refused delete removes nothing;
 * the keys come from the `MessageSent` events themselves (the timeline forgets a
 * deleted message's attachments), so a delete asked again (the same message, or the
 * same Idempotency-Key for a chat) removes whatever an interrupted first one left.
 * Removing a file that is already gone is a no-op.
 */

/** The stored files an attachment list names; public ones (profile images) are never a message's to remove. */
function ownedKeys(attachments: readonly Attachment[]): string[] {
  return attachments.map((a) => uploadKeyOf(a.path)).filter((key): key is string => !!key && !isPublicUpload(key));
}

/** Keys still referenced by a message of the timeline that is not deleted. */
function liveKeys(timeline: TimelineState): Set<string> {
  const keys = new Set<string>();
  for (let index = 0; index < timeline.messageCount; index++) {
    const message = timeline.messages.get(timeline.order.get(String(index)) ?? '');
    if (message && !message.isDeleted) for (const key of ownedKeys(message.attachments)) keys.add(key);
  }
  return keys;
}

const PAGE = 1000;
const REMOVE_AT_ONCE = 32;

/** The files messages of the chat were sent with: all of them, or one message's (read page by page: a chat may be long). */
async function sentKeys(store: EventStore, chatId: string, messageId?: string): Promise<string[]> {
  const keys: string[] = [];
  for (let from = 0; ; from += PAGE) {
    const events = await store.readStream(streams.chatMessages(chatId), { from, limit: PAGE });
    for (const { data } of eventsOf(events, 'MessageSent')) {
      if (messageId === undefined || data.messageId === messageId) keys.push(...ownedKeys(data.attachments ?? []));
    }
    if (events.length < PAGE) return keys;
  }
}

/** One message's files, from its own event (the timeline knows where it is), else by reading the chat. */
async function messageKeys(store: EventStore, chatId: string, messageId: string, revision: number) {
  const [event] = await store.readStream(streams.chatMessages(chatId), { from: revision, limit: 1 });
  if (event && isEvent(event, 'MessageSent') && event.data.messageId === messageId) {
    return ownedKeys(event.data.attachments ?? []);
  }
  return sentKeys(store, chatId, messageId);
}

export type AttachmentFiles = Readonly<{
  /** After a message was deleted: its files, unless a live message of `timeline` still references one. */
  removeMessageFiles(chatId: string, messageId: string, timeline: TimelineState): Promise<void>;
  /** After a chat was deleted: the files of all its messages. */
  removeChatFiles(chatId: string): Promise<void>;
}>;

export function attachmentFiles(
  deps: Readonly<{ store: EventStore; blobs: BlobStore; logger: Logger }>,
): AttachmentFiles {
  async function remove(keys: readonly string[]) {
    const unique = [...new Set(keys)];
    // A few at a time: a long chat may hold thousands of files.
    for (let i = 0; i < unique.length; i += REMOVE_AT_ONCE) {
      await Promise.all(
        unique.slice(i, i + REMOVE_AT_ONCE).map((key) =>
          // The delete itself has succeeded: a file that cannot go now is logged, not an error for the caller.
          deps.blobs
            .remove(key)
            .catch((error: unknown) => deps.logger.warn('attachment file not removed', { key, error })),
        ),
      );
    }
  }
  return {
    async removeMessageFiles(chatId, messageId, timeline) {
      const message = timeline.messages.get(messageId);
      if (!message?.isDeleted || message.isAIMessage) return;
      const keys = await messageKeys(deps.store, chatId, messageId, message.revision);
      if (keys.length === 0) return;
      const kept = liveKeys(timeline);
      await remove(keys.filter((key) => !kept.has(key)));
    },
    async removeChatFiles(chatId) {
      await remove(await sentKeys(deps.store, chatId));
    },
  };
}
