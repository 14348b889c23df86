import { ArrowDown } from 'lucide-react';
import { Spinner } from '../components/ui/spinner';
import type { AiDraft } from './ai-drafts';
import { aiSender } from './assistant-avatar';
import { chatTexts } from './chat-format';
import { DraftItem } from './draft-item';
import { MessageItem } from './message-item';
import type { MentionTarget } from './safe-text';
import type { Message } from './types';
import { useMessageScroll } from './use-message-scroll';

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
  const { scroller, showJump, onScroll, stickIfNear, scrollToBottom } = useMessageScroll({
    chatId,
    messages,
    drafts,
    hasMore,
    isFetchingOlder,
    onLoadOlder,
    stickSignal,
  });

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
