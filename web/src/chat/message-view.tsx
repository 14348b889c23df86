import { ArrowDown, Bot, CornerUpLeft, Download, FileText, Paperclip, Square, Trash2 } from 'lucide-react';
import { useLayoutEffect, useRef, useState } from 'react';
import { Avatar } from '../components/ui/avatar';
import { cx } from '../components/ui/cx';
import { Spinner } from '../components/ui/spinner';
import { scrollBehavior } from '../lib/motion';
import { AiAnswerText } from './ai-answer';
import type { AiDraft } from './ai-drafts';
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
  /** The assistant's answers being written, shown after the messages (none posted yet). */
  drafts?: readonly AiDraft[];
  /** Stop on a draft; without it (an auditor, a non-member) there is no Stop button. */
  onStopDraft?: ((draft: AiDraft) => void) | undefined;
};

/** The assistant, as the bubbles name it. */
const assistantName = 'AI Assistant';

type Groupable = { sender?: { _id: string } | null; isAIMessage: boolean; createdAt: string };

/** A message follows the previous one's bubble without a header of its own (same sender within 5 minutes). */
function isGroupedAfter(previous: Groupable | undefined, next: Groupable): boolean {
  return (
    !!previous &&
    previous.sender?._id === next.sender?._id &&
    previous.isAIMessage === next.isAIMessage &&
    Date.parse(next.createdAt) - Date.parse(previous.createdAt) < 5 * 60_000
  );
}

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
  drafts = [],
  onStopDraft,
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
    const newest = drafts.at(-1)?.messageId ?? messages.at(-1)?._id ?? null;
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
  }, [messages, drafts]);

  // The view changes size (a phone turned, its keyboard opened, the window resized): a reader
  // at the bottom stays there, where a draft grows.
  useLayoutEffect(() => {
    const el = scroller.current;
    if (!el || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() => {
      if (nearBottom.current && !prepending.current) el.scrollTop = el.scrollHeight;
    });
    observer.observe(el);
    return () => observer.disconnect();
  }, []);

  // A draft grows in place (and gives way to its message): a reader at the bottom stays there.
  const draftSize = drafts.reduce((size, draft) => size + draft.content.length + 1, 0);
  // biome-ignore lint/correctness/useExhaustiveDependencies: follow the drafts' text only
  useLayoutEffect(() => {
    const el = scroller.current;
    if (el && nearBottom.current && !prepending.current) el.scrollTop = el.scrollHeight;
  }, [draftSize]);

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
        ) : messages.length === 0 && drafts.length === 0 ? (
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
              const grouped = isGroupedAfter(messages[index - 1], message);
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
            {drafts.map((draft, index) => {
              const asMessage = { sender: aiSender, isAIMessage: true, createdAt: draft.startedAt };
              const previous =
                index === 0 ? messages.at(-1) : { ...asMessage, createdAt: drafts[index - 1]!.startedAt };
              return (
                <DraftItem
                  // Not the posted message's key: the answer arrives as a new entry of the log,
                  // read out once, where the draft's changes never are.
                  key={`draft:${draft.messageId}`}
                  draft={draft}
                  grouped={isGroupedAfter(previous, asMessage)}
                  onStop={onStopDraft}
                />
              );
            })}
          </ol>
        )}
      </div>
      {/* Said once while the assistant writes, not at every new word; the answer itself is read as a new message. */}
      <p role="status" className="sr-only">
        {drafts.length > 0 ? 'The assistant is writing' : ''}
      </p>
      {showJump && (messages.length > 0 || drafts.length > 0) ? (
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
  const senderName = message.isAIMessage ? assistantName : (message.sender?.name ?? 'Unknown');
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
            <AssistantAvatar />
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
              {!message.content ? null : message.isAIMessage ? (
                <AiAnswerText content={message.content} />
              ) : (
                <MessageText content={message.content} mentions={members} selfId={meId} />
              )}
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

/** The sender the server names on the assistant's messages (`aiAssistantSender`). */
const aiSender = { _id: 'ai-assistant', name: assistantName };

function AssistantAvatar() {
  return (
    <span
      className="inline-flex size-8 items-center justify-center rounded-full bg-brand-100 text-brand-700"
      aria-hidden="true"
    >
      <Bot className="size-4" />
    </span>
  );
}

/**
 * An answer the assistant is writing: its bubble as the message will look, the text growing
 * in place, "writing…" and Stop below. Busy and out of the log's announcements: the page
 * says "The assistant is writing" once, and the posted message is read when it comes.
 */
function DraftItem({
  draft,
  grouped,
  onStop,
}: {
  draft: AiDraft;
  grouped: boolean;
  onStop: ((draft: AiDraft) => void) | undefined;
}) {
  return (
    <li
      className={cx('flex flex-row gap-2', grouped ? 'mt-0.5' : 'mt-3')}
      data-message-id={draft.messageId}
      data-draft="true"
      aria-busy="true"
      aria-live="off"
    >
      <div className="w-8 shrink-0">{grouped ? null : <AssistantAvatar />}</div>
      <div className="flex max-w-[82%] min-w-0 flex-col items-start sm:max-w-[70%]">
        {!grouped ? (
          <div className="mb-0.5 flex items-baseline gap-2 px-1 text-xs">
            <span className="font-semibold text-slate-700">{assistantName}</span>
            <time className="text-slate-500" dateTime={draft.startedAt}>
              {messageTime(draft.startedAt)}
            </time>
          </div>
        ) : null}
        <div
          className="max-w-full min-w-0 rounded-2xl rounded-tl-md bg-brand-50 px-3.5 py-2 text-sm text-slate-800 shadow-xs ring-1 ring-brand-100"
          data-testid="ai-draft"
        >
          {draft.content ? (
            <AiAnswerText content={draft.content} />
          ) : (
            <p className="text-slate-500 italic">{chatTexts.aiThinking}</p>
          )}
        </div>
        <div className="mt-1 flex flex-wrap items-center gap-2 px-1 text-xs">
          <span className="inline-flex items-center gap-1.5 text-brand-700" data-testid="ai-writing">
            <span className="flex gap-0.5" aria-hidden="true">
              <span className="size-1.5 rounded-full bg-brand-400 motion-safe:animate-pulse" />
              <span className="size-1.5 rounded-full bg-brand-400 motion-safe:animate-pulse [animation-delay:200ms]" />
              <span className="size-1.5 rounded-full bg-brand-400 motion-safe:animate-pulse [animation-delay:400ms]" />
            </span>
            {chatTexts.aiWriting}
          </span>
          {onStop ? (
            <button
              type="button"
              onClick={() => onStop(draft)}
              disabled={draft.isStopping}
              className="inline-flex items-center gap-1 rounded-md px-2 py-0.5 font-medium text-slate-600 ring-1 ring-slate-300 hover:bg-slate-100 hover:text-slate-800 disabled:cursor-default disabled:opacity-60 disabled:hover:bg-transparent"
            >
              <Square className="size-3 fill-current" aria-hidden="true" />
              {draft.isStopping ? (
                chatTexts.aiStopping
              ) : (
                <>
                  Stop<span className="sr-only"> the answer</span>
                </>
              )}
            </button>
          ) : null}
        </div>
      </div>
    </li>
  );
}

function ReplyQuote({ reply, isMine }: { reply: Message | RepliedMessage; isMine: boolean }) {
  const name = reply.isAIMessage ? assistantName : (reply.sender?.name ?? 'Unknown');
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
