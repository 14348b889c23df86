import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate, useRouterState } from '@tanstack/react-router';
import { MessageSquare, Plus } from 'lucide-react';
import { useCallback, useEffect, useState } from 'react';
import { buttonClass } from '../components/ui/button';
import { Card } from '../components/ui/card';
import { cx } from '../components/ui/cx';
import { queryKeys } from '../lib/query-keys';
import { profileQuery, roleHome } from '../lib/session';
import { useErrorToast } from '../lib/use-error-toast';
import { chatListQuery } from './chat-api';
import { chatTexts } from './chat-format';
import { ChatList } from './chat-list';
import { Conversation } from './conversation';
import { CreateChatDialog } from './create-chat-dialog';

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
      if (id) client.removeQueries({ queryKey: queryKeys.chats.messages(id), exact: true });
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
