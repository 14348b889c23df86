import { type EventStore, type Position, START } from '../port.js';
import { type ChainBreak, chainHash, GENESIS_HASH } from './hash-chain.js';

export type StoreIntegrity = Readonly<{
  ok: boolean;
  streams: number;
  events: number;
  broken: readonly ChainBreak[];
}>;

export type VerifyOptions = Readonly<{
  pageSize?: number;
  /** Called after each page with the events checked so far (progress for the CLI). */
  onProgress?: (events: number) => void;
  /** Stop listing breaks past this many (the counts stay exact). */
  maxBroken?: number;
}>;

/**
 * Checks the whole store in one pass over the global order: each stream's revisions run
 * 0, 1, 2… without gaps and each stored hash is the one recomputed from its predecessor's
 * stored hash, so an edited event is reported at its own revision and the rest of its
 * stream still checks.
 */
export async function verifyStore(store: EventStore, options: VerifyOptions = {}): Promise<StoreIntegrity> {
  const pageSize = options.pageSize ?? 2000;
  const maxBroken = options.maxBroken ?? 1000;
  const heads = new Map<string, { revision: number; hash: string | null }>();
  const broken: ChainBreak[] = [];
  let brokenCount = 0;
  let events = 0;
  let from: Position = START;
  for (;;) {
    const page = await store.readAll(from, pageSize);
    if (page.length === 0) break;
    for (const event of page) {
      events += 1;
      const head = heads.get(event.streamId);
      const expectedRevision = head ? head.revision + 1 : 0;
      const report = (reason: string) => {
        brokenCount += 1;
        if (broken.length < maxBroken) broken.push({ stream: event.streamId, revision: event.revision, reason });
      };
      if (event.revision !== expectedRevision) {
        report(`revision ${event.revision} where ${expectedRevision} was expected`);
      }
      const previous = event.revision === 0 ? GENESIS_HASH : head?.revision === event.revision - 1 ? head.hash : null;
      if (!event.hash) report('no hash stored');
      else if (previous !== null) {
        const expected = chainHash(previous, {
          stream: event.streamId,
          revision: event.revision,
          type: event.type,
          data: event.data,
          metadata: event.metadata,
        });
        if (expected !== event.hash) report('hash does not match the event and its predecessor');
      }
      heads.set(event.streamId, { revision: event.revision, hash: event.hash });
    }
    from = page[page.length - 1]!.position;
    options.onProgress?.(events);
  }
  return { ok: brokenCount === 0, streams: heads.size, events, broken };
}
