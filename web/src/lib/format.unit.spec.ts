import { describe, expect, it } from 'vitest';
import {
  assigneeNames,
  bugModule,
  bugTitle,
  checklistProgress,
  formatDate,
  formatNumber,
  formatTableDate,
  initials,
  reporterName,
  statusLabel,
} from './format';

describe('dates', () => {
  it('reads "1st Jan 2024" in tables', () => {
    expect(formatTableDate('2024-01-01T12:00:00')).toBe('1st Jan 2024');
    expect(formatTableDate('2024-03-22T12:00:00')).toBe('22nd Mar 2024');
    expect(formatTableDate('2024-11-13T12:00:00')).toBe('13th Nov 2024');
  });
  it('reads "DD MMM YYYY" elsewhere', () => {
    expect(formatDate('2024-01-05T12:00:00')).toBe('05 Jan 2024');
  });
  it('shows N/A for a missing or broken date', () => {
    expect(formatDate(null)).toBe('N/A');
    expect(formatTableDate(undefined)).toBe('N/A');
    expect(formatDate('not a date')).toBe('N/A');
  });
});

describe('numbers', () => {
  it('groups thousands with commas', () => {
    expect(formatNumber(1234567)).toBe('1,234,567');
    expect(formatNumber(999)).toBe('999');
    expect(formatNumber(undefined)).toBe('0');
  });
});

describe('status labels', () => {
  it('admin and developer screens say Pending and Resolved', () => {
    expect(statusLabel('Open', 'admin')).toBe('Pending');
    expect(statusLabel('In Progress', 'developer')).toBe('In Progress');
    expect(statusLabel('Closed', 'admin')).toBe('Resolved');
  });
  it('tester screens keep Open, In Progress, Closed', () => {
    expect(statusLabel('Open', 'tester')).toBe('Open');
    expect(statusLabel('Closed', 'tester')).toBe('Closed');
  });
  it('a missing status displays as the default Open', () => {
    expect(statusLabel(null, 'tester')).toBe('Open');
    expect(statusLabel(undefined, 'developer')).toBe('Pending');
  });
});

describe('display defaults', () => {
  it("fills in 'Untitled Bug', 'N/A' and 'Unassigned'", () => {
    expect(bugTitle({ title: '  ' })).toBe('Untitled Bug');
    expect(bugModule({ module: null })).toBe('N/A');
    expect(assigneeNames([])).toBe('Unassigned');
    expect(
      assigneeNames([
        { _id: '1', name: 'Ann' },
        { _id: '2', name: 'Bo' },
      ]),
    ).toBe('Ann, Bo');
  });
  it('reads the reporter, N/A when missing', () => {
    expect(reporterName({ _id: 'u1', name: 'Tess' })).toBe('Tess');
    expect(reporterName(null)).toBe('N/A');
  });
  it('makes initials from a name', () => {
    expect(initials('Ada Lovelace King')).toBe('AK');
    expect(initials('')).toBe('?');
  });
});

describe('checklist progress', () => {
  it('is the rounded percent of completed items', () => {
    expect(checklistProgress([{ completed: true }, { completed: false }, { completed: false }])).toBe(33);
    expect(checklistProgress([{ completed: true }, { completed: true }, { completed: false }])).toBe(67);
    expect(checklistProgress([])).toBe(0);
  });
});
