import { describe, expect, it } from 'vitest';
import { encodePosition, type Position, type RecordedEvent, START } from '../port.js';
import { SettledStretch } from './settled-stretch.js';

const at = (n: number): Position => encodePosition(100n + BigInt(n), 0n);

function event(n: number): RecordedEvent {
  return {
    id: `e${n}`,
    streamId: `s-${n}`,
    revision: 0,
    type: 'Thing',
    data: {},
    metadata: { actorId: null, correlationId: 'c', causationId: null, occurredAt: '', schemaVersion: 1 },
    position: at(n),
    recordedAt: new Date(0),
    hash: null,
  };
}

/** Events numbered from `first` to `last`, as a read would answer them. */
const run = (first: number, last: number) => Array.from({ length: last - first + 1 }, (_, i) => event(first + i));
const ids = (events: readonly RecordedEvent[] | null) => events?.map((e) => e.id) ?? null;

describe('SettledStretch', () => {
  it('answers a follower inside the stretch what comes after it, up to the limit', () => {
    const stretch = new SettledStretch(100);
    stretch.add(at(0), run(1, 5));
    expect(ids(stretch.after(at(0), 10))).toEqual(['e1', 'e2', 'e3', 'e4', 'e5']);
    expect(ids(stretch.after(at(2), 10))).toEqual(['e3', 'e4', 'e5']);
    expect(ids(stretch.after(at(2), 2))).toEqual(['e3', 'e4']);
  });

  it('knows nothing before its start, at its end, or past it: the table must be read', () => {
    const stretch = new SettledStretch(100);
    expect(stretch.after(START, 10)).toBeNull();
    stretch.add(at(3), run(4, 6));
    // Before the read's start: events 1-3 were not part of it.
    expect(stretch.after(at(1), 10)).toBeNull();
    // At its last event: what follows may have settled since.
    expect(stretch.after(at(6), 10)).toBeNull();
    expect(stretch.after(at(9), 10)).toBeNull();
  });

  it('a read that goes on from the end, or began inside the stretch, extends it without repeats', () => {
    const stretch = new SettledStretch(100);
    stretch.add(at(0), run(1, 3));
    stretch.add(at(3), run(4, 5));
    // A read that began at 2 (in flight while the stretch grew) and reached 7.
    stretch.add(at(2), run(3, 7));
    expect(ids(stretch.after(at(0), 100))).toEqual(['e1', 'e2', 'e3', 'e4', 'e5', 'e6', 'e7']);
  });

  it('a read elsewhere starts a new stretch', () => {
    const stretch = new SettledStretch(100);
    stretch.add(at(0), run(1, 3));
    stretch.add(at(10), run(11, 12));
    expect(stretch.after(at(1), 10)).toBeNull();
    expect(ids(stretch.after(at(10), 10))).toEqual(['e11', 'e12']);
  });

  it('an empty read changes nothing', () => {
    const stretch = new SettledStretch(100);
    stretch.add(at(0), run(1, 2));
    stretch.add(at(2), []);
    stretch.add(at(50), []);
    expect(ids(stretch.after(at(0), 10))).toEqual(['e1', 'e2']);
  });

  it('keeps only the newest events, and starts where the oldest kept one follows', () => {
    const stretch = new SettledStretch(3);
    stretch.add(at(0), run(1, 5));
    expect(stretch.after(at(1), 10)).toBeNull();
    expect(ids(stretch.after(at(2), 10))).toEqual(['e3', 'e4', 'e5']);
  });
});
