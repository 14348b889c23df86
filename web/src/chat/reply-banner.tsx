/** Over the composer while replying: who and what is answered, and a button to stop replying. */
import { X } from 'lucide-react';
import { truncate } from './chat-format';
import type { Message } from './types';

export function ReplyBanner({ replyTo, onCancelReply }: { replyTo: Message; onCancelReply: () => void }) {
  const replyName = replyTo.isAIMessage ? 'AI Assistant' : (replyTo.sender?.name ?? 'Unknown');
  return (
    <div
      className="mb-2 flex items-start gap-2 rounded-lg border-l-4 border-brand-500 bg-brand-50 px-3 py-2 text-xs"
      data-testid="reply-banner"
    >
      <div className="min-w-0 flex-1">
        <p className="font-semibold text-brand-800">Replying to {replyName}</p>
        <p className="truncate text-slate-600">
          {replyTo.isDeleted
            ? 'This message was deleted'
            : truncate((replyTo.content || 'Attachment').replace(/\s+/g, ' '), 80)}
        </p>
      </div>
      <button
        type="button"
        onClick={onCancelReply}
        aria-label="Cancel reply"
        className="rounded p-0.5 text-slate-500 hover:bg-white"
      >
        <X className="size-4" />
      </button>
    </div>
  );
}
