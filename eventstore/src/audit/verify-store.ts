import { type EventStore, type Position, START } from '../port.js';
import { type ChainBreak, chainLinkProblem } from './hash-chain.js';

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
  // Only what the next link needs: a store of many streams is held as numbers and hashes.
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
      const reason = chainLinkProblem(heads.get(event.streamId), event);
      if (reason) {
        brokenCount += 1;
        if (broken.length < maxBroken) broken.push({ stream: event.streamId, revision: event.revision, reason });
      }
      heads.set(event.streamId, { revision: event.revision, hash: event.hash });
    }
    from = page[page.length - 1]!.position;
    options.onProgress?.(events);
  }
  return { ok: brokenCount === 0, streams: heads.size, events, broken };
}
