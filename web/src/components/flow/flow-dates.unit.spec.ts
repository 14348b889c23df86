import { describe, expect, it } from 'vitest';
import {
  describeRange,
  fillWeeks,
  formatMoment,
  formatShortDay,
  isoWeekOf,
  isoWeekStart,
  rangePresets,
} from './flow-dates';
import { validateFlowSearch } from './flow-search';

describe('rangePresets', () => {
  const now = new Date('2026-11-24T15:00:00Z');

  it('gives last month as its first and last day (UTC)', () => {
    const lastMonth = rangePresets(undefined, now).find((p) => p.id === 'last-month');
    expect(lastMonth).toMatchObject({ from: '2026-10-01', to: '2026-10-31' });
    const january = rangePresets('2026-01-15', now).find((p) => p.id === 'last-month');
    expect(january).toMatchObject({ from: '2025-12-01', to: '2025-12-31' });
    const march = rangePresets('2028-03-31', now).find((p) => p.id === 'last-month');
    expect(march).toMatchObject({ from: '2028-02-01', to: '2028-02-29' });
  });

  it('gives the last 30 days including today, and all time without a range', () => {
    const presets = rangePresets(undefined, now);
    expect(presets.find((p) => p.id === 'last-30-days')).toMatchObject({ from: '2026-10-26', to: '2026-11-24' });
    expect(presets.find((p) => p.id === 'all-time')).toEqual({ id: 'all-time', label: 'All time' });
  });
});

describe('ISO weeks', () => {
  it('reads and writes weeks across a year end', () => {
    expect(isoWeekStart('2026-W47')?.toISOString().slice(0, 10)).toBe('2026-11-16');
    expect(isoWeekOf(new Date('2026-11-22T23:00:00Z'))).toBe('2026-W47');
    expect(isoWeekOf(new Date('2027-01-01T00:00:00Z'))).toBe('2026-W53');
    expect(isoWeekOf(new Date('2025-12-29T00:00:00Z'))).toBe('2026-W01');
    expect(isoWeekStart('2026-W01')?.toISOString().slice(0, 10)).toBe('2025-12-29');
  });

  it('fills the weeks between with zeros', () => {
    const rows = [
      { week: '2026-W52', n: 1 },
      { week: '2027-W02', n: 2 },
    ];
    expect(fillWeeks(rows, (week) => ({ week, n: 0 }))).toEqual([
      { week: '2026-W52', n: 1 },
      { week: '2026-W53', n: 0 },
      { week: '2027-W01', n: 0 },
      { week: '2027-W02', n: 2 },
    ]);
  });
});

describe('the Flow page search', () => {
  it('keeps real days and known groups, drops anything else', () => {
    expect(validateFlowSearch({ from: '2026-10-01', to: '2026-02-30', asOf: 'yesterday', groupBy: 'module' })).toEqual({
      from: '2026-10-01',
      groupBy: 'module',
    });
    expect(validateFlowSearch({ groupBy: 'reporter' })).toEqual({});
  });

  it('writes days and moments in UTC', () => {
    expect(formatMoment('2026-11-24T09:05:00.000Z')).toBe('24 Nov 2026, 09:05 UTC');
    expect(formatShortDay(new Date('2026-09-01T23:30:00Z'))).toBe('1 Sep');
  });

  it('describes the range', () => {
    expect(describeRange({})).toBe('All time');
    expect(describeRange({ from: '2026-10-01', to: '2026-10-31' })).toBe('01 Oct 2026 – 31 Oct 2026');
  });
});
