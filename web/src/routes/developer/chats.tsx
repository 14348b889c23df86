import { createFileRoute } from '@tanstack/react-router';
import { chatIdFrom, prefetchChatPage } from '../../chat/chat-api';
import { ChatPage } from '../../chat/chat-page';

export const Route = createFileRoute('/developer/chats')({
  loaderDeps: ({ search }) => ({ chat: chatIdFrom(search) }),
  loader: ({ context, deps }) => prefetchChatPage(context.queryClient, deps.chat),
  component: ChatPage,
});
