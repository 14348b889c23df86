import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate, useRouterState } from '@tanstack/react-router';
import { ArrowLeft, LogIn, MessageSquare, Plus, Settings } from 'lucide-react';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { ConfirmModal } from '../components/confirm-modal';
import { Button, buttonClass } from '../components/ui/button';
import { Card } from '../components/ui/card';
import { cx } from '../components/ui/cx';
import { ApiError, messageOf } from '../lib/api';
import { notify } from '../lib/notify';
import { profileQuery, roleHome } from '../lib/session';
import type { User } from '../lib/types';
import { useErrorToast } from '../lib/use-error-toast';
import { type AiDraft, aiDrafts, useAiDrafts } from './ai-drafts';
import {
  addMessageToCache,
  chatKeys,
  chatListQuery,
  chatQuery,
  deleteMessage,
  flattenMessages,
  joinChat,
  markChatRead,
  messagesQuery,
  patchChatInList,
  patchMessageInCache,
  sendMessage,
  stopAiAnswer,
} from './chat-api';
import { chatTexts, isChatAdmin, isParticipant } from './chat-format';
import { ChatList, ChatTypeIcon } from './chat-list';
import { ChatSettingsDialog } from './chat-settings-dialog';
import { Composer, type ComposerSend } from './composer';
import { CreateChatDialog } from './create-chat-dialog';
import { MessageView } from './message-view';
import { type Chat, type ChatUser, chatTypeLabel, type Message } from './types';

/** The chat page: list on the left (w-80), conversation on the right; one pane at a time on phones. */
export function ChatPage() {
  const { data: me } = useQuery(profileQuery());
  const client = useQueryClient();
  const navigate = useNavigate();
  const urlChat = useRouterState({
    select: (state) => {
      const value = (state.location.search as Record<string, unknown>).chat;
      return typeof value === 'string' && value ? value : null;
    },
  });
  const [selectedId, setSelectedId] = useState<string | null>(urlChat);
  const [isCreateOpen, setCreateOpen] = useState(false);
  const [now, setNow] = useState(() => new Date());

  const chats = useQuery(chatListQuery(!!me));
  useErrorToast(chats.error, chatTexts.fetchChatsFailed, { preferServer: true });

  // Time labels ("Yesterday", weekdays) move on with the clock.
  useEffect(() => {
    const timer = setInterval(() => setNow(new Date()), 60_000);
    return () => clearInterval(timer);
  }, []);

  // biome-ignore lint/correctness/useExhaustiveDependencies: follow the URL only
  useEffect(() => {
    if (urlChat && urlChat !== selectedId) setSelectedId(urlChat);
  }, [urlChat]);

  const select = useCallback(
    (id: string | null) => {
      // Selecting a chat clears its messages and loads page 1 afresh.
      if (id) client.removeQueries({ queryKey: chatKeys.messages(id), exact: true });
      setSelectedId(id);
      void navigate({ to: '.', search: (id ? { chat: id } : {}) as never, replace: true });
    },
    [client, navigate],
  );

  if (!me) return null;
  const listed = chats.data?.find((chat) => chat._id === selectedId) ?? null;

  return (
    <Card
      className="flex h-[calc(100dvh-7rem)] min-h-[26rem] overflow-hidden lg:h-[calc(100dvh-8rem)]"
      data-testid="chat-page"
    >
      <aside
        className={cx(
          'w-full shrink-0 flex-col border-slate-200 md:flex md:w-80 md:border-r',
          selectedId ? 'hidden' : 'flex',
        )}
        aria-label="Chats"
      >
        <ChatList
          chats={chats.data}
          isLoading={chats.isPending}
          selectedId={selectedId}
          dashboard={roleHome[me.role]}
          onSelect={select}
          onCreate={() => setCreateOpen(true)}
          now={now}
        />
      </aside>
      <section className={cx('min-w-0 flex-1 flex-col', selectedId ? 'flex' : 'hidden md:flex')}>
        {selectedId ? (
          <Conversation
            key={selectedId}
            chatId={selectedId}
            listed={listed}
            me={me}
            onBack={() => select(null)}
            onGone={() => select(null)}
          />
        ) : (
          <div className="flex flex-1 flex-col items-center justify-center gap-3 p-8 text-center">
            <span className="rounded-full bg-brand-50 p-4 text-brand-600">
              <MessageSquare className="size-8" aria-hidden="true" />
            </span>
            <h2 className="text-lg font-semibold text-slate-900">{chatTexts.noChatSelected}</h2>
            <p className="max-w-sm text-sm text-slate-500">{chatTexts.noChatSelectedHint}</p>
            <button type="button" className={buttonClass('primary', 'md', 'mt-2')} onClick={() => setCreateOpen(true)}>
              <Plus className="size-4" /> Create New Chat
            </button>
          </div>
        )}
      </section>
      <CreateChatDialog
        isOpen={isCreateOpen}
        onClose={() => setCreateOpen(false)}
        meId={me._id}
        onCreated={(chat) => {
          setCreateOpen(false);
          select(chat._id);
        }}
      />
    </Card>
  );
}

type ConversationProps = {
  chatId: string;
  listed: Chat | null;
  me: User;
  onBack: () => void;
  onGone: () => void;
};

let tempCounter = 0;

/** Answers carry the image under both spellings (spec section 3). */
const imageFields = (url: string | null) => ({ profileImageURL: url, profileImageUrl: url });

function Conversation({ chatId, listed, me, onBack, onGone }: ConversationProps) {
  const client = useQueryClient();
  const detail = useQuery({ ...chatQuery(chatId), ...(listed ? { placeholderData: listed } : {}) });
  const gone = detail.error instanceof ApiError && (detail.error.status === 404 || detail.error.status === 403);
  useErrorToast(detail.error, chatTexts.fetchChatFailed, { preferServer: true });
  const chat = detail.data ?? listed;

  const messages = useInfiniteQuery({ ...messagesQuery(chatId), enabled: !!chat && !gone });
  useErrorToast(messages.error, chatTexts.fetchMessagesFailed, { preferServer: true });

  const [temps, setTemps] = useState<Message[]>([]);
  const [replyTo, setReplyTo] = useState<Message | null>(null);
  const [isSettingsOpen, setSettingsOpen] = useState(false);
  const [stickSignal, setStickSignal] = useState(0);

  useEffect(() => {
    if (gone) onGone();
  }, [gone, onGone]);

  const serverMessages = useMemo(() => flattenMessages(messages.data), [messages.data]);
  const shown = useMemo(() => [...serverMessages, ...temps], [serverMessages, temps]);

  // The assistant's answers being written; one whose message is here is done (in the same
  // render, so the draft and its message are never both on screen).
  const allDrafts = useAiDrafts(chatId);
  const drafts = useMemo(() => {
    const posted = new Set(serverMessages.map((m) => m._id));
    return allDrafts.filter((draft) => !posted.has(draft.messageId));
  }, [allDrafts, serverMessages]);
  const postedDrafts = allDrafts.length - drafts.length;
  useEffect(() => {
    if (postedDrafts === 0) return;
    const posted = new Set(serverMessages.map((m) => m._id));
    aiDrafts.settle(allDrafts.filter((draft) => posted.has(draft.messageId)).map((draft) => draft.messageId));
  }, [postedDrafts, allDrafts, serverMessages]);

  const isMember = isParticipant(chat, me._id);
  const isAdmin = isChatAdmin(chat, me._id);
  const people: ChatUser[] = useMemo(() => chat?.participants ?? [], [chat?.participants]);
  const mentionable = useMemo(() => people.filter((p) => p._id !== me._id), [people, me._id]);
  const mentionTargets = useMemo(() => people.map((p) => ({ _id: p._id, name: p.name })), [people]);

  // Mark read when the chat is opened and whenever a newer message is seen.
  const newestId = serverMessages.at(-1)?._id ?? null;
  const lastMarked = useRef<string | null>(null);
  useEffect(() => {
    if (!isMember || messages.isPending) return;
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
  }, [chatId, newestId, isMember, messages.isPending, client]);

  // The list (refreshed every 60 s, or live) knows of a newer message than the view: catch up.
  const listLastAt = listed?.lastMessage?.createdAt ?? null;
  // biome-ignore lint/correctness/useExhaustiveDependencies: only when the list moves
  useEffect(() => {
    if (!listLastAt || messages.isPending) return;
    const newestAt = serverMessages.at(-1)?.createdAt;
    if (!newestAt || Date.parse(listLastAt) > Date.parse(newestAt)) {
      void client.invalidateQueries({ queryKey: chatKeys.messages(chatId) });
    }
  }, [listLastAt]);

  const join = useMutation({
    mutationFn: () => joinChat(chatId),
    onSuccess: (answer) => {
      if (answer && typeof answer === 'object' && '_id' in answer) client.setQueryData(chatKeys.detail(chatId), answer);
      void client.invalidateQueries({ queryKey: chatKeys.detail(chatId), exact: true });
      void client.invalidateQueries({ queryKey: chatKeys.list });
    },
    onError: (error) => notify.error(messageOf(error, chatTexts.fetchChatFailed)),
  });

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
        void client.invalidateQueries({ queryKey: chatKeys.messages(chatId) });
      }
      setTemps((list) => list.filter((m) => m._id !== temp._id));
      setStickSignal((n) => n + 1);
      void client.invalidateQueries({ queryKey: chatKeys.list });
      return true;
    } catch (error) {
      setTemps((list) => list.filter((m) => m._id !== temp._id));
      notify.error(messageOf(error, chatTexts.sendFailed));
      return false;
    }
  };

  const onStopDraft = async (draft: AiDraft) => {
    aiDrafts.setStopping(draft.messageId, true);
    try {
      await stopAiAnswer(chatId, draft.messageId);
    } catch (error) {
      aiDrafts.setStopping(draft.messageId, false);
      notify.error(messageOf(error, chatTexts.stopFailed));
    }
  };

  const [toDelete, setToDelete] = useState<Message | null>(null);
  const [isDeleting, setDeleting] = useState(false);
  const onDelete = async (message: Message) => {
    setDeleting(true);
    try {
      await deleteMessage(chatId, message._id);
      patchMessageInCache(client, chatId, message._id, (m) => ({
        ...m,
        isDeleted: true,
        content: chatTexts.deletedMessage,
        attachments: [],
      }));
      void client.invalidateQueries({ queryKey: chatKeys.list });
    } catch (error) {
      notify.error(messageOf(error, 'Failed to delete message'));
    } finally {
      setDeleting(false);
      setToDelete(null);
    }
  };

  if (!chat) {
    return (
      <div className="flex flex-1 flex-col">
        <ConversationHeader title="" onBack={onBack} />
        <div className="flex flex-1 items-center justify-center text-sm text-slate-500">
          {detail.isPending ? 'Loading chat…' : chatTexts.fetchChatFailed}
        </div>
      </div>
    );
  }

  const canPost = isMember;
  // Any member may stop an answer; auditors only read.
  const canStop = isMember && me.role !== 'auditor';
  const memberCount = chat.participants?.length ?? 0;

  return (
    <div className="flex min-h-0 flex-1 flex-col">
      <ConversationHeader
        title={chat.name}
        onBack={onBack}
        subtitle={`${chatTypeLabel[chat.type] ?? chat.type} · ${memberCount} ${memberCount === 1 ? 'member' : 'members'}${
          chat.aiAssistant?.enabled ? ' · AI on' : ''
        }`}
        icon={<ChatTypeIcon type={chat.type} className="size-9" />}
        action={
          <button
            type="button"
            onClick={() => setSettingsOpen(true)}
            className={buttonClass('ghost', 'sm', 'px-2')}
            aria-label="Chat settings"
            title="Chat settings"
          >
            <Settings className="size-5" />
          </button>
        }
      />
      <MessageView
        chatId={chatId}
        messages={shown}
        isLoading={messages.isPending}
        hasMore={!!messages.hasNextPage}
        isFetchingOlder={messages.isFetchingNextPage}
        onLoadOlder={() => void messages.fetchNextPage()}
        meId={me._id}
        members={mentionTargets}
        canModerate={isAdmin}
        onReply={setReplyTo}
        onDelete={setToDelete}
        stickSignal={stickSignal}
        drafts={drafts}
        onStopDraft={canStop ? (draft) => void onStopDraft(draft) : undefined}
      />
      {canPost ? (
        <Composer
          chatId={chatId}
          members={mentionable}
          replyTo={replyTo}
          onCancelReply={() => setReplyTo(null)}
          onSend={onSend}
        />
      ) : (
        <div className="flex flex-col items-center gap-2 border-t border-slate-200 bg-white p-4 text-center sm:flex-row sm:justify-between sm:text-left">
          <p className="text-sm text-slate-600">You are not a member of this public chat. Join it to send messages.</p>
          <Button onClick={() => join.mutate()} isLoading={join.isPending} icon={<LogIn className="size-4" />}>
            Join
          </Button>
        </div>
      )}
      <ConfirmModal
        isOpen={toDelete !== null}
        title="Delete message"
        confirmLabel="Delete"
        isBusy={isDeleting}
        onConfirm={() => toDelete && void onDelete(toDelete)}
        onClose={() => setToDelete(null)}
      >
        This message will read “This message was deleted” for everyone.
      </ConfirmModal>
      <ChatSettingsDialog
        chat={chat}
        isOpen={isSettingsOpen}
        onClose={() => setSettingsOpen(false)}
        onDeleted={onGone}
        meId={me._id}
      />
    </div>
  );
}

function ConversationHeader({
  title,
  subtitle,
  icon,
  action,
  onBack,
}: {
  title: string;
  subtitle?: string;
  icon?: React.ReactNode;
  action?: React.ReactNode;
  onBack: () => void;
}) {
  return (
    <header className="flex items-center gap-3 border-b border-slate-200 bg-white px-3 py-2.5 sm:px-4">
      <button
        type="button"
        onClick={onBack}
        className={buttonClass('ghost', 'sm', 'px-2 md:hidden')}
        aria-label="Back to chats"
      >
        <ArrowLeft className="size-5" />
      </button>
      {icon}
      <div className="min-w-0 flex-1">
        <h2 className="truncate text-base font-semibold text-slate-900" data-testid="chat-title">
          {title}
        </h2>
        {subtitle ? <p className="truncate text-xs text-slate-500">{subtitle}</p> : null}
      </div>
      {action}
    </header>
  );
}
