/** One posted message in the list: its bubble, the message it replies to, and its Reply and Delete actions. */
import { CornerUpLeft, Trash2 } from 'lucide-react';
import { Avatar } from '../components/ui/avatar';
import { cx } from '../components/ui/cx';
import { AiAnswerText } from './ai-answer';
import { AssistantAvatar, assistantName } from './assistant-avatar';
import { chatTexts, messageTime, truncate } from './chat-format';
import { Attachments } from './message-attachments';
import { MessageText } from './message-text';
import type { MentionTarget } from './safe-text';
import type { Message, RepliedMessage } from './types';

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

export function MessageItem({
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
