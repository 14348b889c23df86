/** The assistant as the message bubbles show it: its name, the sender it posts as, and its avatar. */
import { Bot } from 'lucide-react';

/** The assistant, as the bubbles name it. */
export const assistantName = 'AI Assistant';

/** The sender the server names on the assistant's messages (`aiAssistantSender`). */
export const aiSender = { _id: 'ai-assistant', name: assistantName };

export function AssistantAvatar() {
  return (
    <span
      className="inline-flex size-8 items-center justify-center rounded-full bg-brand-100 text-brand-700"
      aria-hidden="true"
    >
      <Bot className="size-4" />
    </span>
  );
}
