import { Link } from '@tanstack/react-router';
import { ArrowLeft, Bot, Globe, Lock, Plus, Users } from 'lucide-react';
import { buttonClass } from '../components/ui/button';
import { cx } from '../components/ui/cx';
import { Spinner } from '../components/ui/spinner';
import { chatTexts, chatTimeLabel, lastMessagePreview } from './chat-format';
import { type Chat, type ChatType, chatTypeLabel } from './types';

const typeIcon: Record<ChatType, typeof Lock> = { private: Lock, team: Users, public: Globe, ai_assistant: Bot };
const typeTone: Record<ChatType, string> = {
  private: 'bg-slate-100 text-slate-600',
  team: 'bg-cyan-50 text-cyan-700',
  public: 'bg-lime-50 text-lime-700',
  ai_assistant: 'bg-brand-50 text-brand-700',
};

export function ChatTypeIcon({ type, className }: { type: ChatType; className?: string }) {
  const Icon = typeIcon[type] ?? Users;
  return (
    <span
      className={cx(
        'inline-flex size-10 shrink-0 items-center justify-center rounded-full',
        typeTone[type] ?? typeTone.team,
        className,
      )}
      title={chatTypeLabel[type] ?? type}
    >
      <Icon className="size-5" aria-hidden="true" />
      <span className="sr-only">{chatTypeLabel[type] ?? type} chat</span>
    </span>
  );
}

type ChatListProps = {
  chats: Chat[] | undefined;
  isLoading: boolean;
  selectedId: string | null;
  dashboard: '/admin/dashboard' | '/tester/dashboard' | '/developer/dashboard' | '/auditor/dashboard';
  onSelect: (id: string) => void;
  onCreate: () => void;
  now: Date;
};

export function ChatList({ chats, isLoading, selectedId, dashboard, onSelect, onCreate, now }: ChatListProps) {
  return (
    <div className="flex h-full min-h-0 flex-col">
      <div className="flex items-center justify-between gap-2 border-b border-slate-100 px-3 py-3">
        <Link to={dashboard} className={buttonClass('ghost', 'sm')} aria-label="Back to dashboard">
          <ArrowLeft className="size-4" /> Dashboard
        </Link>
        <h1 className="text-sm font-semibold text-slate-900">Chats</h1>
        <button
          type="button"
          className={buttonClass('primary', 'sm', 'px-2')}
          aria-label="Create New Chat"
          title="Create New Chat"
          onClick={onCreate}
        >
          <Plus className="size-4" />
        </button>
      </div>
      <div className="min-h-0 flex-1 overflow-y-auto">
        {isLoading ? (
          <div className="flex justify-center p-8 text-brand-600">
            <Spinner className="size-8" label="Loading chats" />
          </div>
        ) : !chats || chats.length === 0 ? (
          <p className="p-6 text-center text-sm text-slate-500">{chatTexts.noChats}</p>
        ) : (
          <ul aria-label="Chat list" className="divide-y divide-slate-100">
            {chats.map((chat) => {
              const isSelected = chat._id === selectedId;
              const unread = chat.unreadCount ?? 0;
              const time = chatTimeLabel(chat.lastMessage?.createdAt ?? chat.updatedAt ?? chat.createdAt, now);
              return (
                <li key={chat._id}>
                  <button
                    type="button"
                    onClick={() => onSelect(chat._id)}
                    aria-current={isSelected ? 'true' : undefined}
                    data-chat-id={chat._id}
                    className={cx(
                      'flex w-full items-center gap-3 px-3 py-3 text-left transition',
                      isSelected ? 'bg-brand-50' : 'hover:bg-slate-50',
                    )}
                  >
                    <ChatTypeIcon type={chat.type} />
                    <span className="min-w-0 flex-1">
                      <span className="flex items-baseline justify-between gap-2">
                        <span
                          className={cx(
                            'truncate text-sm',
                            unread > 0 ? 'font-semibold text-slate-900' : 'font-medium text-slate-800',
                          )}
                        >
                          {chat.name}
                        </span>
                        <span
                          className={cx(
                            'shrink-0 text-xs',
                            unread > 0 ? 'font-medium text-brand-700' : 'text-slate-600',
                          )}
                        >
                          {time}
                        </span>
                      </span>
                      <span className="mt-0.5 flex items-center justify-between gap-2">
                        <span
                          className={cx(
                            'truncate text-xs',
                            chat.lastMessage?.isDeleted || !chat.lastMessage
                              ? 'text-slate-600 italic'
                              : 'text-slate-600',
                          )}
                        >
                          {lastMessagePreview(chat.lastMessage)}
                        </span>
                        {unread > 0 ? (
                          <span className="inline-flex h-5 min-w-5 shrink-0 items-center justify-center rounded-full bg-brand-600 px-1.5 text-[11px] font-semibold text-white">
                            {unread > 99 ? '99+' : unread}
                            <span className="sr-only"> unread</span>
                          </span>
                        ) : null}
                      </span>
                    </span>
                  </button>
                </li>
              );
            })}
          </ul>
        )}
      </div>
    </div>
  );
}
