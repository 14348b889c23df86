/** The message list's entry for an answer the assistant is still writing. */
import { Square } from 'lucide-react';
import { cx } from '../components/ui/cx';
import { AiAnswerText } from './ai-answer';
import type { AiDraft } from './ai-drafts';
import { AssistantAvatar, assistantName } from './assistant-avatar';
import { chatTexts, messageTime } from './chat-format';

/**
 * An answer the assistant is writing: its bubble as the message will look, the text growing
 * in place, "writing…" and Stop below. Busy and out of the log's announcements: the page
 * says "The assistant is writing" once, and the posted message is read when it comes.
 */
export function DraftItem({
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
