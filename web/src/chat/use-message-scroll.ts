/** Where the message list is scrolled: it sticks to the bottom, keeps its place when older pages come, and asks for them. */
import { useLayoutEffect, useRef, useState } from 'react';
import { scrollBehavior } from '../lib/motion';
import type { AiDraft } from './ai-drafts';
import { NEAR_BOTTOM_PX, NEAR_TOP_PX } from './chat-format';
import type { Message } from './types';

type MessageScrollOptions = {
  chatId: string;
  messages: Message[];
  drafts: readonly AiDraft[];
  hasMore: boolean;
  isFetchingOlder: boolean;
  onLoadOlder: () => void;
  stickSignal: number;
};

export function useMessageScroll({
  chatId,
  messages,
  drafts,
  hasMore,
  isFetchingOlder,
  onLoadOlder,
  stickSignal,
}: MessageScrollOptions) {
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

  return { scroller, showJump, onScroll, stickIfNear, scrollToBottom };
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
