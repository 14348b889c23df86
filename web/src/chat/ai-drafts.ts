import { useMemo, useSyncExternalStore } from 'react';
import { type LiveEvent, subscribeLiveEvents } from '../live';

/**
 * The AI assistant's answers while it writes them (api.md "The AI assistant"): the live
 * stream's `ai-draft` events carry the whole text so far, about ten a second, under the id
 * the finished message will have. Drafts are not in any query: they live here, by that
 * id, until the chat's messages hold the finished one (the page settles it), or until
 * nothing is heard of them for `DRAFT_IDLE_MS` (the assistant's process went away).
 */

export const DRAFT_IDLE_MS = 90_000;

export type AiDraft = Readonly<{
  chatId: string;
  messageId: string;
  /** The text so far (markdown, unfinished). */
  content: string;
  /** When this page first heard of it (ISO): the bubble's time. */
  startedAt: string;
  /** Stop was pressed here and not refused. */
  isStopping: boolean;
}>;

/** `{ chatId, messageId, content }` of an `ai-draft` event, or null for anything else. */
export function parseDraftEvent(event: LiveEvent): { chatId: string; messageId: string; content: string } | null {
  if (event.event !== 'ai-draft' || typeof event.data !== 'object' || event.data === null) return null;
  const { chatId, messageId, content } = event.data as Record<string, unknown>;
  if (typeof chatId !== 'string' || !chatId || typeof messageId !== 'string' || !messageId) return null;
  if (typeof content !== 'string') return null;
  return { chatId, messageId, content };
}

export type AiDraftStore = ReturnType<typeof createAiDraftStore>;

/** How many finished ids are remembered, so a draft event that crosses its final message stays gone. */
const SETTLED_KEPT = 500;

export function createAiDraftStore(options: { idleMs?: number; now?: () => Date } = {}) {
  const idleMs = options.idleMs ?? DRAFT_IDLE_MS;
  const now = options.now ?? (() => new Date());
  /** Replaced, never changed in place: it is the external store's snapshot. */
  let drafts: ReadonlyMap<string, AiDraft> = new Map();
  const settled = new Set<string>();
  const timers = new Map<string, ReturnType<typeof setTimeout>>();
  const listeners = new Set<() => void>();

  const commit = (next: Map<string, AiDraft>) => {
    drafts = next;
    for (const listener of listeners) listener();
  };

  const forget = (messageId: string) => {
    clearTimeout(timers.get(messageId));
    timers.delete(messageId);
    if (!drafts.has(messageId)) return;
    const next = new Map(drafts);
    next.delete(messageId);
    commit(next);
  };

  const expireLater = (messageId: string) => {
    clearTimeout(timers.get(messageId));
    timers.set(
      messageId,
      setTimeout(() => forget(messageId), idleMs),
    );
  };

  return {
    /** A live event: keeps an `ai-draft`'s text; ignores everything else. */
    receive(event: LiveEvent): void {
      const draft = parseDraftEvent(event);
      if (!draft || settled.has(draft.messageId)) return;
      const known = drafts.get(draft.messageId);
      expireLater(draft.messageId);
      if (known && known.content === draft.content && known.chatId === draft.chatId) return;
      const next = new Map(drafts);
      next.set(draft.messageId, {
        ...draft,
        startedAt: known?.startedAt ?? now().toISOString(),
        isStopping: known?.isStopping ?? false,
      });
      commit(next);
    },
    /** These messages are posted (the chat's messages hold them): their drafts end, for good. */
    settle(messageIds: Iterable<string>): void {
      let next: Map<string, AiDraft> | null = null;
      for (const id of messageIds) {
        settled.delete(id);
        settled.add(id);
        clearTimeout(timers.get(id));
        timers.delete(id);
        if (drafts.has(id)) {
          next ??= new Map(drafts);
          next.delete(id);
        }
      }
      while (settled.size > SETTLED_KEPT) settled.delete(settled.values().next().value as string);
      if (next) commit(next);
    },
    setStopping(messageId: string, isStopping: boolean): void {
      const known = drafts.get(messageId);
      if (!known || known.isStopping === isStopping) return;
      commit(new Map(drafts).set(messageId, { ...known, isStopping }));
    },
    getSnapshot: (): ReadonlyMap<string, AiDraft> => drafts,
    subscribe(listener: () => void): () => void {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
    /** Drops everything (tests; a new session). */
    clear(): void {
      for (const timer of timers.values()) clearTimeout(timer);
      timers.clear();
      settled.clear();
      commit(new Map());
    },
  };
}

/** The app's drafts, fed by the app's live stream from the first time a chat is shown. */
export const aiDrafts = createAiDraftStore();

let isListening = false;
function listen() {
  if (isListening) return;
  isListening = true;
  subscribeLiveEvents((event) => aiDrafts.receive(event));
}

function subscribe(listener: () => void) {
  listen();
  return aiDrafts.subscribe(listener);
}

/** The chat's drafts being written, oldest first. */
export function useAiDrafts(chatId: string): AiDraft[] {
  const all = useSyncExternalStore(subscribe, aiDrafts.getSnapshot, aiDrafts.getSnapshot);
  return useMemo(
    () =>
      [...all.values()]
        .filter((draft) => draft.chatId === chatId)
        .sort((a, b) => a.startedAt.localeCompare(b.startedAt)),
    [all, chatId],
  );
}
