import { describe, expect, it } from 'vitest';
import { durationUnitFor, exactSeconds, formatDuration } from './format-duration';

describe('formatDuration', () => {
  it('reads seconds, minutes, hours and days', () => {
    expect(formatDuration(0.4)).toBe('< 1 sec');
    expect(formatDuration(12.4)).toBe('12 sec');
    expect(formatDuration(45 * 60)).toBe('45 min');
    expect(formatDuration(59.7 * 60)).toBe('1.0 hour');
    expect(formatDuration(5 * 3600)).toBe('5.0 hours');
    expect(formatDuration(3.2 * 86_400)).toBe('3.2 days');
    expect(formatDuration(86_400)).toBe('1.0 day');
  });

  it('moves up a unit where rounding would show a full one', () => {
    expect(formatDuration(59.6)).toBe('1 min');
    expect(formatDuration(23.97 * 3600)).toBe('1.0 day');
  });

  it('shows a dash without a value', () => {
    expect(formatDuration(null)).toBe('—');
    expect(formatDuration(undefined)).toBe('—');
    expect(exactSeconds(null)).toBeUndefined();
    expect(exactSeconds(12.5)).toBe('12.5 seconds');
  });
});

describe('durationUnitFor', () => {
  it('counts in days unless everything is shorter', () => {
    expect(durationUnitFor(3 * 86_400).name).toBe('days');
    expect(durationUnitFor(5 * 3600).name).toBe('hours');
    expect(durationUnitFor(300).name).toBe('minutes');
    expect(durationUnitFor(4).name).toBe('seconds');
  });
});
