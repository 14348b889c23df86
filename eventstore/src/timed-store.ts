import type { AppendOptions, AppendResult, EventStore, ExpectedRevision, NewEvent } from './port.js';

/** The same store, telling `observe` how long each append took (seconds), whether it succeeded or not. */
export function timeAppends(store: EventStore, observe: (seconds: number) => void): EventStore {
  return {
    async append(
      streamId: string,
      events: readonly NewEvent[],
      expected: ExpectedRevision,
      options?: AppendOptions,
    ): Promise<AppendResult> {
      const started = performance.now();
      try {
        return await store.append(streamId, events, expected, options);
      } finally {
        observe((performance.now() - started) / 1000);
      }
    },
    readStream: (streamId, options) => store.readStream(streamId, options),
    readAll: (from, limit) => store.readAll(from, limit),
    readAllBackwards: (options) => store.readAllBackwards(options),
    subscribe: (from, options) => store.subscribe(from, options),
    headPosition: () => store.headPosition(),
    close: () => store.close(),
  };
}
