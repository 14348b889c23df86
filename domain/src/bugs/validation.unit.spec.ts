import { describe, expect, it } from 'vitest';
import {
  cleanEntries,
  isAttachmentUrl,
  isDueDateAcceptable,
  isSafeLink,
  normaliseDueDate,
  startOfUtcDay,
  validateAdminBugUpdate,
  validateAttachmentLinks,
  validateBugForm,
} from './validation.js';

const NOW = '2030-06-15T23:30:00.000Z';
const valid = {
  title: 'Login button broken',
  description: 'Clicking login does nothing',
  assigneeIds: ['dev-1'],
  dueDate: null,
  module: null,
} as const;
const messages = (values: Partial<Parameters<typeof validateBugForm>[0]>, checkDueDate?: boolean) =>
  validateBugForm({ ...valid, ...values }, { now: NOW, ...(checkDueDate === undefined ? {} : { checkDueDate }) }).map(
    (i) => `${i.field}: ${i.message}`,
  );

describe('the bug form rules (spec section 5)', () => {
  it('passes a valid form', () => {
    expect(messages({})).toEqual([]);
  });

  describe('title', () => {
    it('is required (blank counts as empty)', () =>
      expect(messages({ title: '   ' })).toEqual(['title: Title is required']));
    it('needs at least 5 characters', () =>
      expect(messages({ title: 'abcd' })).toEqual(['title: Title must be at least 5 characters long']));
    it('accepts exactly 5 and exactly 100', () => {
      expect(messages({ title: 'abcde' })).toEqual([]);
      expect(messages({ title: 'x'.repeat(100) })).toEqual([]);
    });
    it('refuses 101', () =>
      expect(messages({ title: 'x'.repeat(101) })).toEqual(['title: Title cannot exceed 100 characters']));
    it('counts the trimmed text', () =>
      expect(messages({ title: '  abcd  ' })).toEqual(['title: Title must be at least 5 characters long']));
  });

  describe('description', () => {
    it('is required', () => expect(messages({ description: '' })).toEqual(['description: Description is required']));
    it('needs at least 10 characters', () =>
      expect(messages({ description: '123456789' })).toEqual([
        'description: Description must be at least 10 characters long',
      ]));
    it('accepts exactly 10', () => expect(messages({ description: '1234567890' })).toEqual([]));
  });

  describe('developers', () => {
    it('needs at least one', () =>
      expect(messages({ assigneeIds: [] })).toEqual(['assignedTo: At least one developer must be assigned']));
    it('ignores blank ids', () =>
      expect(messages({ assigneeIds: [' '] })).toEqual(['assignedTo: At least one developer must be assigned']));
  });

  describe('due date', () => {
    it('is optional', () => expect(messages({ dueDate: '' })).toEqual([]));
    it('accepts today (UTC), the picker minimum', () => expect(messages({ dueDate: '2030-06-15' })).toEqual([]));
    it('accepts a future date-time', () => expect(messages({ dueDate: '2030-07-01T10:00:00.000Z' })).toEqual([]));
    it('refuses yesterday', () =>
      expect(messages({ dueDate: '2030-06-14' })).toEqual(['dueDate: Due date must be in the future']));
    it('refuses a day that is yesterday in UTC even late in the evening', () =>
      expect(messages({ dueDate: '2030-06-14T23:59:59Z' })).toEqual(['dueDate: Due date must be in the future']));
    it('refuses what is not a date', () =>
      expect(messages({ dueDate: 'soon' })).toEqual(['dueDate: Due date must be a valid date']));
    it('is not checked when told not to (an unchanged due date)', () =>
      expect(messages({ dueDate: '2001-01-01' }, false)).toEqual([]));
  });

  describe('module', () => {
    it('accepts 50 characters', () => expect(messages({ module: 'm'.repeat(50) })).toEqual([]));
    it('refuses 51', () =>
      expect(messages({ module: 'm'.repeat(51) })).toEqual(['module: Module name cannot exceed 50 characters']));
  });

  it('lists several failures in the spec order', () => {
    expect(
      messages({ title: '', description: '', assigneeIds: [], dueDate: '2000-01-01', module: 'm'.repeat(51) }),
    ).toEqual([
      'title: Title is required',
      'description: Description is required',
      'assignedTo: At least one developer must be assigned',
      'dueDate: Due date must be in the future',
      'module: Module name cannot exceed 50 characters',
    ]);
  });

  it('refuses checklist items over 500 characters and script links', () => {
    expect(messages({ checklist: ['ok', 'x'.repeat(501)], attachments: ['javascript:alert(1)'] })).toEqual([
      'checklist.1.text: Checklist items cannot exceed 500 characters',
      'attachments.0: Attachment must be an http or https URL',
    ]);
  });
});

describe('entries, dates and links', () => {
  it('trims checklist and attachment entries and drops blank ones', () => {
    expect(cleanEntries(['  a ', '', '   ', 'b', 3 as unknown as string])).toEqual(['a', 'b']);
  });
  it('finds the start of the UTC day', () => {
    expect(startOfUtcDay('2030-06-15T23:30:00.000Z').toISOString()).toBe('2030-06-15T00:00:00.000Z');
  });
  it('reads a day as UTC midnight and a zone-less time as UTC', () => {
    expect(normaliseDueDate('2030-06-20')).toBe('2030-06-20T00:00:00.000Z');
    expect(normaliseDueDate('2030-06-20T10:00')).toBe('2030-06-20T10:00:00.000Z');
    expect(normaliseDueDate('2030-06-20T10:00:00+02:00')).toBe('2030-06-20T08:00:00.000Z');
    expect(normaliseDueDate('  ')).toBeNull();
    expect(normaliseDueDate('12345')).toBeUndefined();
  });
  it('accepts a due date from the start of today', () => {
    expect(isDueDateAcceptable('2030-06-15T00:00:00.000Z', NOW)).toBe(true);
    expect(isDueDateAcceptable('2030-06-14T23:59:59.999Z', NOW)).toBe(false);
  });
  it('treats only http(s) or scheme-less links as safe', () => {
    expect(isSafeLink('https://example.com/x')).toBe(true);
    expect(isSafeLink('screenshots/login.png')).toBe(true);
    expect(isSafeLink('JavaScript:alert(1)')).toBe(false);
    expect(isSafeLink('data:text/html,hi')).toBe(false);
  });
  it('takes only absolute http(s) URLs without control characters as attachment links', () => {
    expect(isAttachmentUrl('https://example.com/x')).toBe(true);
    expect(isAttachmentUrl('  http://example.com/a?b=c#d  ')).toBe(true);
    for (const bad of [
      'java\tscript:alert(1)',
      'not a url',
      'screenshots/login.png',
      'javascript:alert(1)',
      'data:text/html,hi',
      'ftp://example.com/x',
      'https://exa\nmple.com/',
      'https://example.com/\u0000',
      'http://',
    ]) {
      expect(isAttachmentUrl(bad), JSON.stringify(bad)).toBe(false);
    }
  });
  it('refuses relative, non-http and over-long attachment links on the field', () => {
    expect(validateAttachmentLinks(['https://x.test/ok', 'not a url', 'java\tscript:alert(1)'])).toEqual([
      { field: 'attachments.1', message: 'Attachment must be an http or https URL' },
      { field: 'attachments.2', message: 'Attachment must be an http or https URL' },
    ]);
    expect(validateAttachmentLinks([`https://x.test/${'a'.repeat(2048)}`])).toEqual([
      { field: 'attachments.0', message: 'Attachment must be an http or https URL' },
    ]);
  });
});

describe('the admin update checks (their own order)', () => {
  it('passes a complete form', () => {
    expect(validateAdminBugUpdate({ title: 't', description: 'd', dueDate: '2030-01-01', assigneeIds: ['x'] })).toEqual(
      [],
    );
  });
  it('lists title, description, due date, developers, in that order', () => {
    expect(
      validateAdminBugUpdate({ title: ' ', description: '', dueDate: null, assigneeIds: [] }).map((i) => i.message),
    ).toEqual([
      'Title is required',
      'Description is required',
      'Due date is required',
      'Bug must be assigned to at least one developer',
    ]);
  });
});
