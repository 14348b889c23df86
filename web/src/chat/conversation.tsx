/** One open chat: its header, messages and the assistant's drafts, the composer (or Join), and its dialogs. */
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { LogIn, Settings } from 'lucide-react';
import { useEffect, useMemo, useState } from 'react';
import { ConfirmModal } from '../components/confirm-modal';
import { Button, buttonClass } from '../components/ui/button';
import { ApiError, messageOf } from '../lib/api';
import { notify } from '../lib/notify';
import { queryKeys } from '../lib/query-keys';
import type { User } from '../lib/types';
import { useErrorToast } from '../lib/use-error-toast';
import { type AiDraft, aiDrafts, useAiDrafts } from './ai-drafts';
import { useIsAiUnavailable } from './ai-settings-fields';
import {
  chatQuery,
  deleteMessage,
  flattenMessages,
  joinChat,
  messagesQuery,
  patchMessageInCache,
  stopAiAnswer,
} from './chat-api';
import { chatTexts, isChatAdmin, isParticipant } from './chat-format';
import { ChatTypeIcon } from './chat-list';
import { ChatSettingsDialog } from './chat-settings-dialog';
import { Composer } from './composer';
import { ConversationHeader } from './conversation-header';
import { MessageView } from './message-view';
import { type Chat, type ChatUser, chatTypeLabel, type Message } from './types';
import { useConversationSync } from './use-conversation-sync';
import { useSendMessage } from './use-send-message';

type ConversationProps = {
  chatId: string;
  listed: Chat | null;
  me: User;
  onBack: () => void;
  onGone: () => void;
};

export function Conversation({ chatId, listed, me, onBack, onGone }: ConversationProps) {
  const client = useQueryClient();
  const detail = useQuery({ ...chatQuery(chatId), ...(listed ? { placeholderData: listed } : {}) });
  const isAiUnavailable = useIsAiUnavailable();
  const gone = detail.error instanceof ApiError && (detail.error.status === 404 || detail.error.status === 403);
  useErrorToast(detail.error, chatTexts.fetchChatFailed, { preferServer: true });
  const chat = detail.data ?? listed;

  const messages = useInfiniteQuery({ ...messagesQuery(chatId), enabled: !!chat && !gone });
  useErrorToast(messages.error, chatTexts.fetchMessagesFailed, { preferServer: true });

  const { temps, stickSignal, onSend } = useSendMessage(chatId, me);
  const [replyTo, setReplyTo] = useState<Message | null>(null);
  const [isSettingsOpen, setSettingsOpen] = useState(false);

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

  useConversationSync({ chatId, listed, serverMessages, isMember, isPending: messages.isPending });

  const join = useMutation({
    mutationFn: () => joinChat(chatId),
    onSuccess: (answer) => {
      if (answer && typeof answer === 'object' && '_id' in answer)
        client.setQueryData(queryKeys.chats.detail(chatId), answer);
      void client.invalidateQueries({ queryKey: queryKeys.chats.detail(chatId), exact: true });
      void client.invalidateQueries({ queryKey: queryKeys.chats.list });
    },
    onError: (error) => notify.error(messageOf(error, chatTexts.fetchChatFailed)),
  });

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
      void client.invalidateQueries({ queryKey: queryKeys.chats.list });
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
      {chat.aiAssistant?.enabled && isAiUnavailable ? (
        // A quiet line, not a message: no answer is coming, and the settings say how to change that.
        <p role="note" className="border-t border-slate-200 bg-slate-50 px-4 py-2 text-xs text-slate-600">
          The AI assistant is on in this chat, but no AI provider is set up, so it will not answer. Chat settings say
          how to set one up.
        </p>
      ) : null}
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
