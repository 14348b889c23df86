import { describe, expect, it } from 'vitest';
import { parseStatusFilter, parseStatusValue, statusDisplayName, statusFromInput } from './status.js';

describe('status input', () => {
  it.each([
    ['Open', 'Open'],
    ['open', 'Open'],
    ['Pending', 'Open'],
    ['PENDING', 'Open'],
    ['In Progress', 'In Progress'],
    ['in progress', 'In Progress'],
    ['  In   Progress ', 'In Progress'],
    ['InProgress', 'In Progress'],
    ['Closed', 'Closed'],
    ['Resolved', 'Closed'],
    ['resolved', 'Closed'],
  ])('reads %j as %j', (input, expected) => {
    expect(statusFromInput(input)).toBe(expected);
    expect(parseStatusValue(input)).toBe(expected);
    expect(parseStatusFilter(input)).toBe(expected);
  });

  it('reads empty as every status in a filter', () => {
    expect(parseStatusFilter('')).toBeNull();
    expect(parseStatusFilter(undefined)).toBeNull();
    expect(parseStatusFilter('All')).toBeNull();
  });

  it('refuses anything else with a 400-mapped validation error', () => {
    expect(() => parseStatusFilter('Done')).toThrow(expect.objectContaining({ code: 'validation' }));
    expect(() => parseStatusValue('Done')).toThrow(
      'Status must be one of Open, In Progress, Closed (or Pending, Resolved)',
    );
    expect(() => parseStatusValue(42)).toThrow(expect.objectContaining({ code: 'validation' }));
  });

  it.each(['constructor', '__proto__', 'toString', 'hasOwnProperty'])(
    'refuses %j, a name Object.prototype has (it answered 500)',
    (input) => {
      expect(statusFromInput(input)).toBeUndefined();
      expect(() => parseStatusFilter(input)).toThrow(expect.objectContaining({ code: 'validation' }));
      expect(() => parseStatusValue(input)).toThrow(expect.objectContaining({ code: 'validation' }));
    },
  );

  it('requires a value when setting a status', () => {
    expect(() => parseStatusValue('')).toThrow('Status is required');
    expect(() => parseStatusValue(undefined)).toThrow('Status is required');
  });

  it('shows Open as Pending and Closed as Resolved', () => {
    expect(statusDisplayName('Open')).toBe('Pending');
    expect(statusDisplayName('In Progress')).toBe('In Progress');
    expect(statusDisplayName('Closed')).toBe('Resolved');
  });
});
