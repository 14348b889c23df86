import { ArrowDown, Bot, CornerUpLeft, Download, FileText, Paperclip, Trash2 } from 'lucide-react';
import { useLayoutEffect, useRef, useState } from 'react';
import { Avatar } from '../components/ui/avatar';
import { cx } from '../components/ui/cx';
import { Spinner } from '../components/ui/spinner';
import { scrollBehavior } from '../lib/motion';
import {
  chatTexts,
  formatBytes,
  isThumbnail,
  messageTime,
  NEAR_BOTTOM_PX,
  NEAR_TOP_PX,
  safeAttachmentPath,
  truncate,
} from './chat-format';
import { MessageText } from './message-text';
import type { MentionTarget } from './safe-text';
import type { Attachment, Message, RepliedMessage } from './types';

type MessageViewProps = {
  chatId: string;
  messages: Message[];
  isLoading: boolean;
  hasMore: boolean;
  isFetchingOlder: boolean;
  onLoadOlder: () => void;
  meId: string;
  members: MentionTarget[];
  canModerate: boolean;
  onReply: (message: Message) => void;
  onDelete: (message: Message) => void;
  /** Bumped when the user sends: jump to the newest message whatever the position. */
  stickSignal: number;
};

export function MessageView({
  chatId,
  messages,
  isLoading,
  hasMore,
  isFetchingOlder,
  onLoadOlder,
  meId,
  members,
  canModerate,
  onReply,
  onDelete,
  stickSignal,
}: MessageViewProps) {
  const scroller = useRef<HTMLDivElement>(null);
  const nearBottom = useRef(true);
  const prepending = useRef<{ anchorId: string | null; offset: number; height: number; top: number } | null>(null);
  const oldestId = useRef<string | null>(null);
  const newestId = useRef<string | null>(null);
  const [showJump, setShowJump] = useState(false);

  // A new chat starts at the bottom with nothing pending.
  // biome-ignore lint/correctness/useExhaustiveDependencies: reset per chat
  useLayoutEffect(() => {
    nearBottom.current = true;
    prepending.current = null;
    oldestId.current = null;
    newestId.current = null;
    setShowJump(false);
  }, [chatId]);

  useLayoutEffect(() => {
    const el = scroller.current;
    if (!el) return;
    const oldest = messages[0]?._id ?? null;
    const newest = messages.at(-1)?._id ?? null;
    if (prepending.current && oldest !== oldestId.current && oldestId.current !== null) {
      // Older page prepended: keep what the user was looking at where it was.
      const saved = prepending.current;
      const anchor = saved.anchorId ? messageElement(el, saved.anchorId) : null;
      if (anchor) el.scrollTop += offsetIn(el, anchor) - saved.offset;
      else el.scrollTop = el.scrollHeight - saved.height + saved.top;
      prepending.current = null;
    } else if (newest !== newestId.current && (nearBottom.current || newestId.current === null)) {
      el.scrollTop = el.scrollHeight;
    }
    oldestId.current = oldest;
    newestId.current = newest;
  }, [messages]);

  useLayoutEffect(() => {
    if (stickSignal === 0) return;
    const el = scroller.current;
    if (!el) return;
    nearBottom.current = true;
    el.scrollTop = el.scrollHeight;
  }, [stickSignal]);

  useLayoutEffect(() => {
    if (!isFetchingOlder && prepending.current && messages[0]?._id === oldestId.current) {
      // The page came back with nothing new: allow another try later.
      prepending.current = null;
    }
  }, [isFetchingOlder, messages]);

  const onScroll = () => {
    const el = scroller.current;
    if (!el) return;
    const distance = el.scrollHeight - el.scrollTop - el.clientHeight;
    nearBottom.current = distance <= NEAR_BOTTOM_PX;
    setShowJump(distance > NEAR_BOTTOM_PX);
    if (el.scrollTop <= NEAR_TOP_PX && hasMore && !isFetchingOlder && !prepending.current) {
      const anchor = firstVisible(el);
      prepending.current = {
        anchorId: anchor?.dataset.messageId ?? null,
        offset: anchor ? offsetIn(el, anchor) : 0,
        height: el.scrollHeight,
        top: el.scrollTop,
      };
      onLoadOlder();
    }
  };

  const stickIfNear = () => {
    const el = scroller.current;
    if (el && nearBottom.current) el.scrollTop = el.scrollHeight;
  };

  const scrollToBottom = () => {
    const el = scroller.current;
    if (!el) return;
    el.scrollTo({ top: el.scrollHeight, behavior: scrollBehavior() });
    nearBottom.current = true;
    setShowJump(false);
  };

  const byId = new Map(messages.map((message) => [message._id, message]));

  return (
    <div className="relative min-h-0 flex-1">
      <div
        ref={scroller}
        onScroll={onScroll}
        className="h-full overflow-y-auto overscroll-contain bg-slate-50/60 px-3 py-4 sm:px-5"
        data-testid="message-scroller"
        aria-label="Messages"
        role="log"
        aria-live="polite"
      >
        {isLoading ? (
          <div className="flex h-full items-center justify-center text-brand-600">
            <Spinner className="size-8" label="Loading messages" />
          </div>
        ) : messages.length === 0 ? (
          <div className="flex h-full flex-col items-center justify-center gap-1 text-center">
            <p className="text-sm font-medium text-slate-700">{chatTexts.noMessagesTitle}</p>
            <p className="text-sm text-slate-500">{chatTexts.noMessagesHint}</p>
          </div>
        ) : (
          <ol className="space-y-1">
            <li className="flex h-8 items-center justify-center text-xs text-slate-500" aria-hidden={!isFetchingOlder}>
              {isFetchingOlder ? (
                <Spinner className="size-5 text-brand-600" label="Loading older messages" />
              ) : hasMore ? (
                <span>Scroll up for older messages</span>
              ) : (
                <span>Beginning of the conversation</span>
              )}
            </li>
            {messages.map((message, index) => {
              const previous = messages[index - 1];
              const grouped =
                !!previous &&
                previous.sender?._id === message.sender?._id &&
                previous.isAIMessage === message.isAIMessage &&
                Date.parse(message.createdAt) - Date.parse(previous.createdAt) < 5 * 60_000;
              const reply =
                typeof message.replyTo === 'string' ? (byId.get(message.replyTo) ?? null) : (message.replyTo ?? null);
              return (
                <MessageItem
                  key={message._id}
                  message={message}
                  reply={reply}
                  isMine={!message.isAIMessage && message.sender?._id === meId}
                  grouped={grouped}
                  meId={meId}
                  members={members}
                  canDelete={!message.isTemp && !message.isDeleted && (message.sender?._id === meId || canModerate)}
                  onReply={onReply}
                  onDelete={onDelete}
                  onMediaLoad={stickIfNear}
                />
              );
            })}
          </ol>
        )}
      </div>
      {showJump && messages.length > 0 ? (
        <button
          type="button"
          onClick={scrollToBottom}
          aria-label="Scroll to bottom"
          title="Scroll to bottom"
          className="absolute right-4 bottom-4 inline-flex size-10 items-center justify-center rounded-full bg-white text-brand-700 shadow-lg ring-1 ring-slate-200 hover:bg-brand-50"
        >
          <ArrowDown className="size-5" />
        </button>
      ) : null}
    </div>
  );
}

function messageElement(scroller: HTMLElement, id: string): HTMLElement | null {
  return scroller.querySelector<HTMLElement>(`[data-message-id="${CSS.escape(id)}"]`);
}

function offsetIn(scroller: HTMLElement, element: HTMLElement): number {
  return element.getBoundingClientRect().top - scroller.getBoundingClientRect().top;
}

/** The first message whose bottom is inside the view: what the reader is looking at. */
function firstVisible(scroller: HTMLElement): HTMLElement | null {
  const top = scroller.getBoundingClientRect().top;
  for (const item of scroller.querySelectorAll<HTMLElement>('[data-message-id]')) {
    if (item.getBoundingClientRect().bottom > top) return item;
  }
  return null;
}

type MessageItemProps = {
  message: Message;
  reply: Message | RepliedMessage | null;
  isMine: boolean;
  grouped: boolean;
  meId: string;
  members: MentionTarget[];
  canDelete: boolean;
  onReply: (message: Message) => void;
  onDelete: (message: Message) => void;
  onMediaLoad: () => void;
};

function MessageItem({
  message,
  reply,
  isMine,
  grouped,
  meId,
  members,
  canDelete,
  onReply,
  onDelete,
  onMediaLoad,
}: MessageItemProps) {
  const senderName = message.isAIMessage ? 'AI Assistant' : (message.sender?.name ?? 'Unknown');
  const mentionsMe = message.mentions?.includes(meId) && !isMine;
  return (
    <li
      className={cx('group flex gap-2', isMine ? 'flex-row-reverse' : 'flex-row', grouped ? 'mt-0.5' : 'mt-3')}
      data-message-id={message._id}
      data-temp={message.isTemp ? 'true' : undefined}
    >
      <div className="w-8 shrink-0">
        {!grouped && !isMine ? (
          message.isAIMessage ? (
            <span
              className="inline-flex size-8 items-center justify-center rounded-full bg-brand-100 text-brand-700"
              aria-hidden="true"
            >
              <Bot className="size-4" />
            </span>
          ) : (
            <Avatar user={message.sender ?? { name: senderName }} size="sm" />
          )
        ) : null}
      </div>
      <div className={cx('flex max-w-[82%] min-w-0 flex-col sm:max-w-[70%]', isMine ? 'items-end' : 'items-start')}>
        {!grouped ? (
          <div className={cx('mb-0.5 flex items-baseline gap-2 px-1 text-xs', isMine ? 'flex-row-reverse' : '')}>
            <span className="font-semibold text-slate-700">{isMine ? 'You' : senderName}</span>
            <time className="text-slate-500" dateTime={message.createdAt}>
              {messageTime(message.createdAt)}
            </time>
          </div>
        ) : null}
        <div
          className={cx(
            'max-w-full min-w-0 rounded-2xl px-3.5 py-2 text-sm shadow-xs',
            isMine
              ? 'rounded-tr-md bg-brand-600 text-white'
              : message.isAIMessage
                ? 'rounded-tl-md bg-brand-50 text-slate-800 ring-1 ring-brand-100'
                : 'rounded-tl-md bg-white text-slate-800 ring-1 ring-slate-200',
            mentionsMe && 'ring-2 ring-amber-300',
            message.isTemp && 'opacity-70',
          )}
        >
          {reply ? <ReplyQuote reply={reply} isMine={isMine} /> : null}
          {message.isDeleted ? (
            <p className={cx('italic', isMine ? 'text-brand-100' : 'text-slate-500')}>{chatTexts.deletedMessage}</p>
          ) : (
            <>
              {message.content ? <MessageText content={message.content} mentions={members} selfId={meId} /> : null}
              {message.attachments?.length ? (
                <Attachments
                  attachments={message.attachments}
                  isMine={isMine}
                  isTemp={!!message.isTemp}
                  onMediaLoad={onMediaLoad}
                />
              ) : null}
            </>
          )}
        </div>
        <div className={cx('mt-0.5 flex items-center gap-1 px-1 text-xs', isMine ? 'flex-row-reverse' : '')}>
          {message.isTemp ? (
            <span className="text-slate-500 italic">{chatTexts.sending}</span>
          ) : grouped ? (
            <time className="text-slate-500 opacity-0 transition group-hover:opacity-100" dateTime={message.createdAt}>
              {messageTime(message.createdAt)}
            </time>
          ) : null}
          {!message.isTemp && !message.isDeleted ? (
            <span className="flex items-center gap-0.5 transition sm:opacity-0 sm:group-focus-within:opacity-100 sm:group-hover:opacity-100">
              <button
                type="button"
                onClick={() => onReply(message)}
                className="inline-flex items-center gap-1 rounded px-1.5 py-0.5 text-slate-500 hover:bg-slate-200 hover:text-slate-800"
                aria-label={`Reply to ${senderName}`}
              >
                <CornerUpLeft className="size-3.5" /> Reply
              </button>
              {canDelete ? (
                <button
                  type="button"
                  onClick={() => onDelete(message)}
                  className="inline-flex items-center gap-1 rounded px-1.5 py-0.5 text-slate-500 hover:bg-rose-50 hover:text-rose-700"
                  aria-label="Delete message"
                >
                  <Trash2 className="size-3.5" /> Delete
                </button>
              ) : null}
            </span>
          ) : null}
        </div>
      </div>
    </li>
  );
}

function ReplyQuote({ reply, isMine }: { reply: Message | RepliedMessage; isMine: boolean }) {
  const name = reply.isAIMessage ? 'AI Assistant' : (reply.sender?.name ?? 'Unknown');
  const text = reply.isDeleted
    ? chatTexts.deletedMessage
    : truncate((reply.content || 'Attachment').replace(/\s+/g, ' '), 80);
  return (
    <div
      className={cx(
        'mb-1.5 rounded-md border-l-2 px-2 py-1 text-xs',
        isMine ? 'border-white/70 bg-white/15 text-brand-50' : 'border-brand-400 bg-slate-100 text-slate-600',
      )}
      data-testid="reply-quote"
    >
      <span className="block font-semibold">{name}</span>
      <span className="block truncate">{text}</span>
    </div>
  );
}

function Attachments({
  attachments,
  isMine,
  isTemp,
  onMediaLoad,
}: {
  attachments: Attachment[];
  isMine: boolean;
  isTemp: boolean;
  onMediaLoad: () => void;
}) {
  return (
    <ul className="mt-1.5 flex flex-wrap gap-2" aria-label="Attachments">
      {attachments.map((attachment, index) => {
        const path = isTemp ? null : safeAttachmentPath(attachment);
        const key = `${attachment.path}-${index}`;
        if (path && isThumbnail(attachment)) {
          return (
            <li key={key}>
              <a href={path} target="_blank" rel="noopener noreferrer" className="block" title={attachment.filename}>
                <img
                  src={path}
                  alt={attachment.filename}
                  loading="lazy"
                  onLoad={onMediaLoad}
                  className="max-h-48 max-w-full rounded-lg bg-slate-100 object-cover sm:max-w-60"
                />
              </a>
            </li>
          );
        }
        const body = (
          <>
            {path ? <FileText className="size-4 shrink-0" /> : <Paperclip className="size-4 shrink-0" />}
            <span className="min-w-0 truncate">{attachment.filename}</span>
            {attachment.size ? <span className="shrink-0 opacity-70">{formatBytes(attachment.size)}</span> : null}
            {path ? <Download className="size-3.5 shrink-0" /> : null}
          </>
        );
        const chip = cx(
          'flex max-w-64 items-center gap-1.5 rounded-lg px-2.5 py-1.5 text-xs',
          isMine ? 'bg-white/15 text-white hover:bg-white/25' : 'bg-slate-100 text-slate-700 hover:bg-slate-200',
        );
        return (
          <li key={key}>
            {path ? (
              <a href={path} download={attachment.filename} rel="noopener noreferrer" className={chip}>
                {body}
              </a>
            ) : (
              <span className={chip}>{body}</span>
            )}
          </li>
        );
      })}
    </ul>
  );
}
