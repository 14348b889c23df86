import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { LiveEvent } from '../live';
import { createAiDraftStore, DRAFT_IDLE_MS, parseDraftEvent } from './ai-drafts';

const draftEvent = (messageId: string, content: string, chatId = 'c1'): LiveEvent => ({
  event: 'ai-draft',
  topics: [],
  position: '',
  data: { chatId, messageId, content },
});

const texts = (store: ReturnType<typeof createAiDraftStore>) =>
  [...store.getSnapshot().values()].map((draft) => [draft.messageId, draft.content]);

describe('the assistant’s drafts', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('reads only well-formed ai-draft events', () => {
    expect(parseDraftEvent(draftEvent('m1', 'Hel'))).toEqual({ chatId: 'c1', messageId: 'm1', content: 'Hel' });
    expect(parseDraftEvent({ event: 'chat', topics: ['chat:c1'], position: 'p1', data: {} })).toBeNull();
    expect(parseDraftEvent({ event: 'ai-draft', topics: [], position: '', data: { chatId: 'c1' } })).toBeNull();
    expect(parseDraftEvent({ event: 'ai-draft', topics: [], position: '', data: null })).toBeNull();
    expect(
      parseDraftEvent({
        event: 'ai-draft',
        topics: [],
        position: '',
        data: { chatId: 'c1', messageId: 'm1', content: 3 },
      }),
    ).toBeNull();
  });

  it('keeps the whole text so far by message id, its first time, and tells its readers of changes only', () => {
    const store = createAiDraftStore();
    const heard = vi.fn();
    store.subscribe(heard);
    store.receive(draftEvent('m1', 'Hel'));
    const started = store.getSnapshot().get('m1')?.startedAt;
    vi.advanceTimersByTime(1000);
    store.receive(draftEvent('m1', 'Hello there'));
    store.receive(draftEvent('m1', 'Hello there'));
    store.receive(draftEvent('m2', 'Other', 'c2'));
    expect(texts(store)).toEqual([
      ['m1', 'Hello there'],
      ['m2', 'Other'],
    ]);
    expect(store.getSnapshot().get('m1')?.startedAt).toBe(started);
    expect(heard).toHaveBeenCalledTimes(3);
  });

  it('ends a draft whose message is posted, and a late draft event does not bring it back', () => {
    const store = createAiDraftStore();
    store.receive(draftEvent('m1', 'Hello'));
    const before = store.getSnapshot();
    store.settle(['m1', 'unknown']);
    expect(store.getSnapshot()).not.toBe(before);
    expect(texts(store)).toEqual([]);
    store.receive(draftEvent('m1', 'Hello there'));
    expect(texts(store)).toEqual([]);
  });

  it('drops a draft that is not heard of for 90 s, counted from its last update', () => {
    const store = createAiDraftStore();
    store.receive(draftEvent('m1', 'Hello'));
    vi.advanceTimersByTime(DRAFT_IDLE_MS - 1000);
    store.receive(draftEvent('m1', 'Hello there'));
    vi.advanceTimersByTime(DRAFT_IDLE_MS - 1000);
    expect(texts(store)).toEqual([['m1', 'Hello there']]);
    vi.advanceTimersByTime(1000);
    expect(texts(store)).toEqual([]);
  });

  it('remembers Stop being pressed across updates, and forgets it when Stop is refused', () => {
    const store = createAiDraftStore();
    store.receive(draftEvent('m1', 'Hello'));
    store.setStopping('m1', true);
    store.receive(draftEvent('m1', 'Hello there'));
    expect(store.getSnapshot().get('m1')?.isStopping).toBe(true);
    store.setStopping('m1', false);
    expect(store.getSnapshot().get('m1')?.isStopping).toBe(false);
    store.setStopping('gone', true);
    expect(store.getSnapshot().has('gone')).toBe(false);
  });
});
