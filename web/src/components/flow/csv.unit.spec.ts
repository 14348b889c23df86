import { describe, expect, it } from 'vitest';
import { csvFileName, toCsv } from './csv';

describe('toCsv', () => {
  it('writes the header, then the rows, quoting what needs it', () => {
    expect(
      toCsv({
        header: ['title', 'seconds'],
        rows: [
          ['Crash, on "save"', 12.5],
          [null, 3],
        ],
      }),
    ).toBe('title,seconds\r\n"Crash, on ""save""",12.5\r\n,3\r\n');
  });

  it('names the file after the chart and the day the answer is for', () => {
    expect(csvFileName('cumulative', '2026-11-24T14:03:00.000Z')).toBe('flow-cumulative-2026-11-24.csv');
    expect(csvFileName('weekly', undefined)).toBe('flow-weekly.csv');
  });
});
