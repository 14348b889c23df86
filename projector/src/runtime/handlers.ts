import type { EventOf, EventType } from '@bugtrail/domain';
import type { RecordedEvent } from '@bugtrail/eventstore';
import type { Projection, ProjectionContext } from './projection.js';

/** A stored event of one of `Types`, its data typed. */
export type Recorded<Types extends EventType> = EventOf<RecordedEvent, Types>;

/** One handler per event type the projection reads; each folds its event into the batch's changes. */
export type Handlers<Changes, Types extends EventType> = {
  readonly [Type in Types]: (changes: Changes, event: Recorded<Type>) => void;
};

/**
 * A projection written as one handler per event type (issue 34; CONTRIBUTING.md "Adding to a
 * read model"). A batch with events it reads goes through three steps:
 *
 * - `load` (when the handlers need stored rows): reads, once per batch, the rows its events touch.
 * - `fold`: each event goes to the handler of its type (types without one are skipped), which
 *   records what the event changes in the batch's `Changes`: plain data, no database, so each
 *   handler is tested given/when/then (`projectionSpec` in `@bugtrail/testing/projections`).
 * - `write`: the batch's changes are stored in the batch's transaction, per table and per batch
 *   (rebuilds replay millions of events), and its live topics named.
 */
export type HandledProjection<Changes, Types extends EventType, Loaded = undefined> = Projection & {
  readonly handles: readonly Types[];
  /** The changes a batch of events makes over what `load` read (pure). */
  fold(events: readonly RecordedEvent[], loaded?: Loaded): Changes;
};

export function defineProjection<Changes, Types extends EventType, Loaded = undefined>(
  definition: Omit<Projection, 'apply'> & {
    /** Which events of the handled types it reads (all of them when left out). */
    where?: (event: RecordedEvent) => boolean;
    /** The stored rows the batch's events touch, read once before the handlers run. */
    load?: (events: readonly Recorded<Types>[], context: ProjectionContext) => Promise<Loaded>;
    /** The changes a batch starts from (over what `load` read). */
    begin: (loaded: Loaded) => Changes;
    on: Handlers<Changes, Types>;
    write: (changes: Changes, context: ProjectionContext) => Promise<void>;
  },
): HandledProjection<Changes, Types, Loaded> {
  const { where, load, begin, on, write, ...projection } = definition;
  const handlers = on as unknown as Readonly<Record<string, (changes: Changes, event: RecordedEvent) => void>>;
  // Own properties only: an event type is data, never a way to reach Object.prototype.
  const read = (events: readonly RecordedEvent[]) =>
    events.filter((event): event is Recorded<Types> => Object.hasOwn(handlers, event.type) && (where?.(event) ?? true));
  const foldRead = (events: readonly Recorded<Types>[], loaded: Loaded): Changes => {
    const changes = begin(loaded);
    for (const event of events) handlers[event.type]!(changes, event);
    return changes;
  };
  return {
    ...projection,
    handles: Object.keys(on) as Types[],
    fold: (events, loaded) => foldRead(read(events), loaded as Loaded),
    async apply(events, context) {
      const relevant = read(events);
      if (relevant.length === 0) return;
      const loaded = load ? await load(relevant, context) : (undefined as Loaded);
      await write(foldRead(relevant, loaded), context);
    },
  };
}
