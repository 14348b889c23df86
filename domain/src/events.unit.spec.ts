import { describe, expect, expectTypeOf, it } from 'vitest';
import { eventsOf, isEvent, knownEvent } from './index.js';

const stored = (type: string, data: unknown) => ({ type, data, position: `p-${type}` });

describe('typed events at the boundary', () => {
  const saved = stored('ViewSaved', { userId: 'u1', viewId: 'v1', name: 'Mine', path: '/admin/bugs', query: '' });
  const deleted = stored('ViewDeleted', { userId: 'u1', viewId: 'v1' });
  const stranger = stored('SomethingNobodyRegisters', { userId: 'u2' });

  it('isEvent narrows to the types named, keeping the rest of the stored event', () => {
    expect(isEvent(saved, 'ViewSaved')).toBe(true);
    expect(isEvent(saved, 'ViewDeleted')).toBe(false);
    expect(isEvent(deleted, 'ViewSaved', 'ViewDeleted')).toBe(true);
    if (isEvent(saved, 'ViewSaved')) {
      expectTypeOf(saved.data.name).toEqualTypeOf<string>();
      expect(saved.position).toBe('p-ViewSaved');
    }
  });

  it('knownEvent answers undefined for a type no feature registers', () => {
    expect(knownEvent(saved)).toBe(saved);
    expect(knownEvent(stranger)).toBeUndefined();
  });

  it('eventsOf keeps the events of the types named, in their order', () => {
    const events = [deleted, stranger, saved, deleted];
    expect(eventsOf(events, 'ViewSaved', 'ViewDeleted')).toEqual([deleted, saved, deleted]);
    expect(eventsOf(events, 'ViewSaved').map((e) => e.data.viewId)).toEqual(['v1']);
    expect(eventsOf(events, 'BugReported')).toEqual([]);
  });
});
