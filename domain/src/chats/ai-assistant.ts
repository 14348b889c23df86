import type { AiMessagePosted, ChatState } from './chat.js';
import type { MessageSentData } from './chat.schemas.js';

/**
 * The assistant's answer to one human message, or null when the chat (as it was
 * when the message arrived) has no assistant enabled. The text comes from the
 * caller: a provider's answer, or the plain "no provider" notice.
 */
export function decideAiReply(
  chatWhenSent: ChatState,
  message: MessageSentData,
  reply: Readonly<{ messageId: string; content: string }>,
): AiMessagePosted | null {
  if (chatWhenSent.status !== 'active' || !chatWhenSent.aiAssistant.enabled) return null;
  if (chatWhenSent.id !== message.chatId) return null;
  return {
    type: 'AiMessagePosted',
    data: {
      chatId: message.chatId,
      messageId: reply.messageId,
      content: reply.content,
      replyTo: message.messageId,
      model: chatWhenSent.aiAssistant.model,
    },
  };
}
