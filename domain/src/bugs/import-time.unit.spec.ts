import { describe, expect, it } from 'vitest';
import { isTimeZone, parseSourceDay, parseSourceTime } from './import-time.js';

describe('reading an export’s times', () => {
  it('takes a time with an offset as that instant, whatever the zone', () => {
    expect(parseSourceTime('2024-03-05T14:22:10Z', 'Europe/Berlin')).toBe('2024-03-05T14:22:10.000Z');
    expect(parseSourceTime('2024-03-05T14:22:10.5+02:00', 'UTC')).toBe('2024-03-05T12:22:10.500Z');
    expect(parseSourceTime('2024-03-05 14:22 -0530', 'UTC')).toBe('2024-03-05T19:52:00.000Z');
  });

  it('reads a time without an offset in the import’s zone, daylight saving included', () => {
    expect(parseSourceTime('2024-03-05 14:22', 'UTC')).toBe('2024-03-05T14:22:00.000Z');
    // Winter in Berlin is UTC+1, summer UTC+2.
    expect(parseSourceTime('2024-01-15 10:00:00', 'Europe/Berlin')).toBe('2024-01-15T09:00:00.000Z');
    expect(parseSourceTime('2024-07-15 10:00:00', 'Europe/Berlin')).toBe('2024-07-15T08:00:00.000Z');
    expect(parseSourceTime('2024-07-15 10:00', 'America/New_York')).toBe('2024-07-15T14:00:00.000Z');
  });

  it('reads the hour a spring change skips with the offset before it, and a repeated hour as its first', () => {
    // 2024-03-31 02:30 does not exist in Berlin; 2024-10-27 02:30 happens twice.
    expect(parseSourceTime('2024-03-31 02:30', 'Europe/Berlin')).toBe('2024-03-31T01:30:00.000Z');
    expect(parseSourceTime('2024-10-27 02:30', 'Europe/Berlin')).toBe('2024-10-27T00:30:00.000Z');
  });

  it('reads Redmine’s, Jira’s and the dotted forms', () => {
    expect(parseSourceTime('03/05/2024 02:22 PM', 'UTC')).toBe('2024-03-05T14:22:00.000Z');
    expect(parseSourceTime('03/05/2024 12:05 AM', 'UTC')).toBe('2024-03-05T00:05:00.000Z');
    expect(parseSourceTime('2024/03/05 14:22', 'UTC')).toBe('2024-03-05T14:22:00.000Z');
    expect(parseSourceTime('05/Mar/24 2:22 PM', 'UTC')).toBe('2024-03-05T14:22:00.000Z');
    expect(parseSourceTime('5/mar/2024 9:01 am', 'UTC')).toBe('2024-03-05T09:01:00.000Z');
    expect(parseSourceTime('05.03.2024 14:22', 'UTC')).toBe('2024-03-05T14:22:00.000Z');
    expect(parseSourceTime('2024-03-05', 'Europe/Berlin')).toBe('2024-03-04T23:00:00.000Z');
  });

  it('says empty for nothing and not-a-time for what is none', () => {
    expect(parseSourceTime('', 'UTC')).toBeNull();
    expect(parseSourceTime('   ', 'UTC')).toBeNull();
    expect(parseSourceTime(undefined, 'UTC')).toBeNull();
    for (const text of [
      'yesterday',
      '2024-02-30',
      '13/45/2024',
      '2024-03-05 25:00',
      '05/Foo/24',
      '1700000000',
      '14:22',
    ]) {
      expect(parseSourceTime(text, 'UTC'), text).toBeUndefined();
    }
  });

  it('keeps a due day as its UTC midnight, as the report form stores days', () => {
    expect(parseSourceDay('2024-03-05', 'America/New_York')).toBe('2024-03-05T00:00:00.000Z');
    expect(parseSourceDay('03/05/2024', 'Asia/Tokyo')).toBe('2024-03-05T00:00:00.000Z');
    expect(parseSourceDay('2024-03-05 12:00', 'Europe/Berlin')).toBe('2024-03-05T11:00:00.000Z');
  });

  it('knows the IANA zones', () => {
    expect(isTimeZone('Europe/Berlin')).toBe(true);
    expect(isTimeZone('UTC')).toBe(true);
    expect(isTimeZone('Mars/Olympus')).toBe(false);
  });
});
