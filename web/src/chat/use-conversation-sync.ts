/** Keeps an open conversation in step with the server: marks it read, and catches up when the chat list knows of a newer message. */
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { queryKeys } from '../lib/query-keys';
import { markChatRead, patchChatInList } from './chat-api';
import type { Chat, Message } from './types';

type ConversationSyncOptions = {
  chatId: string;
  listed: Chat | null;
  serverMessages: Message[];
  isMember: boolean;
  isPending: boolean;
};

export function useConversationSync({ chatId, listed, serverMessages, isMember, isPending }: ConversationSyncOptions) {
  const client = useQueryClient();
  // Mark read when the chat is opened and whenever a newer message is seen.
  const newestId = serverMessages.at(-1)?._id ?? null;
  const lastMarked = useRef<string | null>(null);
  useEffect(() => {
    if (!isMember || isPending) return;
    const mark = () => {
      if (document.visibilityState !== 'visible') return;
      const key = newestId ?? '(empty)';
      if (lastMarked.current === key) return;
      lastMarked.current = key;
      markChatRead(chatId)
        .then(() => patchChatInList(client, chatId, (c) => ({ ...c, unreadCount: 0 })))
        .catch(() => {
          lastMarked.current = null;
        });
    };
    mark();
    document.addEventListener('visibilitychange', mark);
    return () => document.removeEventListener('visibilitychange', mark);
  }, [chatId, newestId, isMember, isPending, client]);

  // The list (refreshed every 60 s, or live) knows of a newer message than the view: catch up.
  const listLastAt = listed?.lastMessage?.createdAt ?? null;
  // biome-ignore lint/correctness/useExhaustiveDependencies: only when the list moves
  useEffect(() => {
    if (!listLastAt || isPending) return;
    const newestAt = serverMessages.at(-1)?.createdAt;
    if (!newestAt || Date.parse(listLastAt) > Date.parse(newestAt)) {
      void client.invalidateQueries({ queryKey: queryKeys.chats.messages(chatId) });
    }
  }, [listLastAt]);
}
