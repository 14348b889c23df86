import { type Position, type RecordedEvent, START } from '../port.js';

/**
 * The events followers read last, kept for the followers behind them. A read of the store
 * answers a settled stretch: every event after its start up to its last one, for good
 * (`readAll` shows only what no running transaction can still precede, in position order).
 * So a follower asking from inside the stretch needs no query: the projector and the
 * reactors, which drift apart by a batch or two, read each new event once between them
 * instead of once each.
 */
export class SettledStretch {
  /** The stretch holds every event after `start`, up to its last. */
  private start: Position = START;
  private events: RecordedEvent[] = [];

  constructor(private readonly capacity: number) {}

  /** Up to `limit` events after `position`, when the stretch holds what follows it; else null. */
  after(position: Position, limit: number): RecordedEvent[] | null {
    const last = this.events[this.events.length - 1];
    if (!last || position < this.start || position >= last.position) return null;
    let low = 0;
    let high = this.events.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (this.events[middle]!.position <= position) low = middle + 1;
      else high = middle;
    }
    return this.events.slice(low, low + limit);
  }

  /** What a read after `from` answered: it goes on from the stretch when it began inside it, else starts anew. */
  add(from: Position, events: readonly RecordedEvent[]): void {
    if (events.length === 0) return;
    const last = this.events[this.events.length - 1]?.position;
    if (last !== undefined && from >= this.start && from <= last) {
      for (const event of events) if (event.position > last) this.events.push(event);
    } else {
      this.start = from;
      this.events = [...events];
    }
    const over = this.events.length - this.capacity;
    if (over > 0) {
      this.start = this.events[over - 1]!.position;
      this.events = this.events.slice(over);
    }
  }
}
