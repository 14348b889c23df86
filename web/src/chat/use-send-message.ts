/**
 * Sending from a conversation: the message shows at once as a temporary one (greyed, "Sending…")
 * until the server's answer replaces it in the cache, or it goes away when the send fails.
 */
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { messageOf } from '../lib/api';
import { notify } from '../lib/notify';
import { queryKeys } from '../lib/query-keys';
import type { User } from '../lib/types';
import { addMessageToCache, patchChatInList, sendMessage } from './chat-api';
import { chatTexts } from './chat-format';
import type { ComposerSend } from './composer';
import type { Message } from './types';

let tempCounter = 0;

/** Answers carry the image under both spellings (spec section 3). */
const imageFields = (url: string | null) => ({ profileImageURL: url, profileImageUrl: url });

export function useSendMessage(chatId: string, me: User) {
  const client = useQueryClient();
  const [temps, setTemps] = useState<Message[]>([]);
  const [stickSignal, setStickSignal] = useState(0);

  const onSend = async (draft: ComposerSend): Promise<boolean> => {
    tempCounter += 1;
    const temp: Message = {
      _id: `temp-${Date.now()}-${tempCounter}`,
      chat: chatId,
      sender: { _id: me._id, name: me.name, ...imageFields(me.profileImageURL ?? me.profileImageUrl ?? null) },
      content: draft.content,
      attachments: draft.files.map((file) => ({ filename: file.name, path: '', mimetype: file.type, size: file.size })),
      mentions: draft.mentions,
      replyTo: draft.replyTo
        ? {
            _id: draft.replyTo._id,
            content: draft.replyTo.content,
            sender: draft.replyTo.sender,
            isDeleted: draft.replyTo.isDeleted,
            isAIMessage: draft.replyTo.isAIMessage,
            createdAt: draft.replyTo.createdAt,
          }
        : null,
      isDeleted: false,
      isAIMessage: false,
      createdAt: new Date().toISOString(),
      isTemp: true,
    };
    setTemps((list) => [...list, temp]);
    setStickSignal((n) => n + 1);
    try {
      const saved = await sendMessage(chatId, {
        content: draft.content,
        mentions: draft.mentions,
        replyTo: draft.replyTo?._id ?? null,
        files: draft.files,
      });
      if (saved && typeof saved === 'object' && saved._id) {
        addMessageToCache(client, chatId, saved);
        patchChatInList(client, chatId, (c) => ({
          ...c,
          lastMessage: {
            _id: saved._id,
            content: saved.content,
            createdAt: saved.createdAt,
            isDeleted: false,
            isAIMessage: false,
            sender: { _id: me._id, name: me.name },
          },
        }));
      } else {
        void client.invalidateQueries({ queryKey: queryKeys.chats.messages(chatId) });
      }
      setTemps((list) => list.filter((m) => m._id !== temp._id));
      setStickSignal((n) => n + 1);
      void client.invalidateQueries({ queryKey: queryKeys.chats.list });
      return true;
    } catch (error) {
      setTemps((list) => list.filter((m) => m._id !== temp._id));
      notify.error(messageOf(error, chatTexts.sendFailed));
      return false;
    }
  };

  return { temps, stickSignal, onSend };
}
