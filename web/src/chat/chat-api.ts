import { infiniteQueryOptions, type QueryClient, queryOptions } from '@tanstack/react-query';
import { api } from '../lib/api';
import { queryKeys } from '../lib/query-keys';
import type { AiAssistantSettings, Chat, ChatType, ChatUser, Message, MessagePage } from './types';

const base = '/api/chats';
/** How often the open list refreshes its unread counts and last messages. */
export const CHAT_LIST_REFRESH_MS = 60_000;
const chatPath = (id: string) => `${base}/${encodeURIComponent(id)}`;

export const chatListQuery = (enabled: boolean) =>
  queryOptions({
    queryKey: queryKeys.chats.list,
    queryFn: ({ signal }) => api<Chat[]>(base, { signal }),
    refetchInterval: enabled ? CHAT_LIST_REFRESH_MS : false,
    refetchIntervalInBackground: false,
    enabled,
  });

export const chatQuery = (id: string) =>
  queryOptions({
    queryKey: queryKeys.chats.detail(id),
    queryFn: ({ signal }) => api<Chat>(chatPath(id), { signal }),
  });

export const messagesQuery = (id: string) =>
  infiniteQueryOptions({
    queryKey: queryKeys.chats.messages(id),
    queryFn: ({ pageParam, signal }) => api<MessagePage>(`${chatPath(id)}/messages?page=${pageParam}`, { signal }),
    initialPageParam: 1,
    getNextPageParam: (last, _all, lastParam) => (last?.hasMore ? lastParam + 1 : undefined),
    staleTime: 0,
  });

/** The chat named by a chats page's `?chat=` (what it opens), else undefined. */
export function chatIdFrom(search: Record<string, unknown>): string | undefined {
  return typeof search.chat === 'string' && search.chat ? search.chat : undefined;
}

/**
 * The chats pages' loader: the list, and the chat the address opens with its first page of
 * messages, fetched while the page's code loads. This module stays light (no date library):
 * loaders are part of the route tree every page loads.
 */
export function prefetchChatPage(client: QueryClient, chatId: string | undefined): void {
  void client.prefetchQuery(chatListQuery(true));
  if (!chatId) return;
  void client.prefetchQuery(chatQuery(chatId));
  void client.prefetchInfiniteQuery(messagesQuery(chatId));
}

/** GET /users (the chat path): everyone, as {_id, name}. */
export const chatDirectoryQuery = () =>
  queryOptions({
    queryKey: queryKeys.users.chatDirectory,
    queryFn: ({ signal }) => api<ChatUser[]>('/users', { signal }),
    staleTime: 60_000,
  });

export type ChatDraft = { name: string; type: ChatType; participants: string[]; aiAssistant: AiAssistantSettings };
export type ChatUpdate = { name: string; participants: string[]; admins: string[]; aiAssistant: AiAssistantSettings };

export const createChat = (draft: ChatDraft) => api<Chat>(base, { method: 'POST', body: draft });
export const updateChat = (id: string, update: ChatUpdate) => api<Chat>(chatPath(id), { method: 'PUT', body: update });
export const deleteChat = (id: string) => api<unknown>(chatPath(id), { method: 'DELETE' });
export const joinChat = (id: string) => api<Chat>(`${chatPath(id)}/join`, { method: 'POST' });
export const markChatRead = (id: string) => api<unknown>(`${chatPath(id)}/read`, { method: 'POST' });
export const deleteMessage = (chatId: string, messageId: string) =>
  api<unknown>(`${chatPath(chatId)}/messages/${encodeURIComponent(messageId)}`, { method: 'DELETE' });

/**
 * Stop on an answer the assistant is writing (`messageId`: its draft's). 202 whether or not
 * it was still being written; never queued offline, since a late Stop means nothing.
 */
export const stopAiAnswer = (chatId: string, messageId: string) =>
  api<{ message: string }>(`${chatPath(chatId)}/messages/${encodeURIComponent(messageId)}/stop`, {
    method: 'POST',
    offline: 'fail',
  });

export type OutgoingMessage = { content: string; mentions: string[]; replyTo: string | null; files: File[] };

/** JSON, or multipart (field `attachments`) when there are files. */
export function sendMessage(chatId: string, message: OutgoingMessage): Promise<Message> {
  const path = `${chatPath(chatId)}/messages`;
  if (message.files.length === 0) {
    return api<Message>(path, {
      method: 'POST',
      body: { content: message.content, mentions: message.mentions, replyTo: message.replyTo },
    });
  }
  const form = new FormData();
  form.append('content', message.content);
  for (const id of message.mentions) form.append('mentions', id);
  if (message.replyTo) form.append('replyTo', message.replyTo);
  for (const file of message.files) form.append('attachments', file, file.name);
  return api<Message>(path, { method: 'POST', form });
}

type Pages = { pages: MessagePage[]; pageParams: unknown[] };

/** Puts a message the server answered into the newest page, once. */
export function addMessageToCache(client: QueryClient, chatId: string, message: Message) {
  client.setQueryData<Pages>(queryKeys.chats.messages(chatId), (data) => {
    if (!data || data.pages.length === 0) return data;
    if (data.pages.some((page) => page.messages.some((m) => m._id === message._id))) return data;
    const [first, ...rest] = data.pages;
    return { ...data, pages: [{ ...first!, messages: [...first!.messages, message] }, ...rest] };
  });
}

export function patchMessageInCache(
  client: QueryClient,
  chatId: string,
  messageId: string,
  patch: (m: Message) => Message,
) {
  client.setQueryData<Pages>(queryKeys.chats.messages(chatId), (data) =>
    data
      ? {
          ...data,
          pages: data.pages.map((page) => ({
            ...page,
            messages: page.messages.map((m) => (m._id === messageId ? patch(m) : m)),
          })),
        }
      : data,
  );
}

/** Oldest first across pages (page 1 is the newest), each message once. */
export function flattenMessages(data: Pages | undefined): Message[] {
  if (!data) return [];
  const seen = new Set<string>();
  const out: Message[] = [];
  for (let i = data.pages.length - 1; i >= 0; i -= 1) {
    for (const message of data.pages[i]?.messages ?? []) {
      if (seen.has(message._id)) continue;
      seen.add(message._id);
      out.push(message);
    }
  }
  return out;
}

export function patchChatInList(client: QueryClient, chatId: string, patch: (chat: Chat) => Chat) {
  client.setQueryData<Chat[]>(queryKeys.chats.list, (list) =>
    list?.map((chat) => (chat._id === chatId ? patch(chat) : chat)),
  );
}
