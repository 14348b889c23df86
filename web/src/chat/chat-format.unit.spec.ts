import { describe, expect, it } from 'vitest';
import {
  chatTimeLabel,
  checkAttachments,
  isThumbnail,
  lastMessagePreview,
  MAX_ATTACHMENT_BYTES,
  mentionedIds,
  mentionQueryAt,
  safeAttachmentPath,
  toggleAdmin,
  toggleParticipant,
  truncate,
} from './chat-format';

// Wednesday 12 June 2024, 15:30 local time.
const now = new Date(2024, 5, 12, 15, 30);

describe('chatTimeLabel', () => {
  it('shows the clock time for today', () => {
    expect(chatTimeLabel(new Date(2024, 5, 12, 9, 5), now)).toBe('09:05');
    expect(chatTimeLabel(new Date(2024, 5, 12, 0, 0), now)).toBe('00:00');
  });
  it('says Yesterday for the previous calendar day, even minutes ago', () => {
    expect(chatTimeLabel(new Date(2024, 5, 11, 23, 59), now)).toBe('Yesterday');
    expect(chatTimeLabel(new Date(2024, 5, 11, 0, 1), now)).toBe('Yesterday');
    expect(chatTimeLabel(new Date(2024, 5, 13, 0, 30), new Date(2024, 5, 14, 0, 1))).toBe('Yesterday');
  });
  it('shows the weekday under 7 days ago', () => {
    expect(chatTimeLabel(new Date(2024, 5, 10, 12, 0), now)).toBe('Monday');
    expect(chatTimeLabel(new Date(2024, 5, 6, 12, 0), now)).toBe('Thursday');
  });
  it('shows month and day from 7 days on', () => {
    expect(chatTimeLabel(new Date(2024, 5, 5, 12, 0), now)).toBe('Jun 5');
    expect(chatTimeLabel(new Date(2023, 11, 24, 12, 0), now)).toBe('Dec 24');
  });
  it('accepts ISO strings and tolerates junk', () => {
    expect(chatTimeLabel(new Date(2024, 5, 12, 14, 0).toISOString(), now)).toBe('14:00');
    expect(chatTimeLabel(null, now)).toBe('');
    expect(chatTimeLabel('not a date', now)).toBe('');
  });
  it('treats a future day (clock skew) as a date, not a weekday', () => {
    expect(chatTimeLabel(new Date(2024, 5, 14, 12, 0), now)).toBe('Jun 14');
  });
});

describe('lastMessagePreview', () => {
  const base = {
    _id: 'm1',
    createdAt: now.toISOString(),
    isDeleted: false,
    isAIMessage: false,
    sender: { _id: 'u1', name: 'Ada' },
  };
  it('says No messages yet without a last message', () => {
    expect(lastMessagePreview(null)).toBe('No messages yet');
    expect(lastMessagePreview(undefined)).toBe('No messages yet');
  });
  it('says This message was deleted for a deleted one', () => {
    expect(lastMessagePreview({ ...base, content: 'secret', isDeleted: true })).toBe('This message was deleted');
  });
  it('prefixes the sender name', () => {
    expect(lastMessagePreview({ ...base, content: 'hello' })).toBe('Ada: hello');
  });
  it('prefixes AI: for assistant messages', () => {
    expect(
      lastMessagePreview({
        ...base,
        content: 'Hi there',
        isAIMessage: true,
        sender: { _id: 'ai', name: 'AI Assistant' },
      }),
    ).toBe('AI: Hi there');
  });
  it('truncates the text to 30 characters', () => {
    const text = 'a'.repeat(30);
    expect(lastMessagePreview({ ...base, content: text })).toBe(`Ada: ${text}`);
    expect(lastMessagePreview({ ...base, content: `${text}bcd` })).toBe(`Ada: ${text}...`);
    expect(
      lastMessagePreview({ ...base, content: '0123456789012345678901234567890123456789', isAIMessage: true }),
    ).toBe('AI: 012345678901234567890123456789...');
  });
  it('flattens newlines and names attachment-only messages', () => {
    expect(lastMessagePreview({ ...base, content: 'one\ntwo' })).toBe('Ada: one two');
    expect(lastMessagePreview({ ...base, content: '' })).toBe('Ada: Attachment');
  });
  it('does without a sender name', () => {
    expect(lastMessagePreview({ ...base, content: 'x', sender: { _id: 'u0', name: ' ' } })).toBe('x');
  });
});

describe('truncate', () => {
  it('counts characters, not UTF-16 units', () => {
    expect(truncate('😀'.repeat(30))).toBe('😀'.repeat(30));
    expect(truncate('😀'.repeat(31))).toBe(`${'😀'.repeat(30)}...`);
  });
});

describe('member coupling', () => {
  it('making someone admin adds them as participant', () => {
    expect(toggleAdmin({ participants: ['a'], admins: ['a'] }, 'b', true)).toEqual({
      participants: ['a', 'b'],
      admins: ['a', 'b'],
    });
  });
  it('removing a participant removes their admin', () => {
    expect(toggleParticipant({ participants: ['a', 'b'], admins: ['a', 'b'] }, 'b', false)).toEqual({
      participants: ['a'],
      admins: ['a'],
    });
  });
  it('removing admin keeps the participant', () => {
    expect(toggleAdmin({ participants: ['a', 'b'], admins: ['a', 'b'] }, 'b', false)).toEqual({
      participants: ['a', 'b'],
      admins: ['a'],
    });
  });
});

describe('attachments', () => {
  it('accepts at most 5 files and none over 20 MB', () => {
    const files = Array.from({ length: 7 }, (_, i) => ({ name: `f${i}`, size: 10 }));
    expect(checkAttachments(0, files).accepted).toEqual([0, 1, 2, 3, 4]);
    expect(checkAttachments(3, files).accepted).toEqual([0, 1]);
    expect(checkAttachments(0, files).errors).toEqual(['You can attach at most 5 files']);
    const big = checkAttachments(0, [
      { name: 'big.zip', size: MAX_ATTACHMENT_BYTES + 1 },
      { name: 'ok', size: MAX_ATTACHMENT_BYTES },
    ]);
    expect(big.accepted).toEqual([1]);
    expect(big.errors).toEqual(['big.zip is larger than 20 MB']);
  });
  it('only links server paths under /uploads/', () => {
    expect(safeAttachmentPath({ path: '/uploads/chat/abc.png' })).toBe('/uploads/chat/abc.png');
    // Chat files come as signed links: the path is used as given, query and all.
    const signed = '/uploads/chat/2026/11/abc.png?exp=1800000000&sig=Zm9v_bar-Baz';
    expect(safeAttachmentPath({ path: signed })).toBe(signed);
    expect(safeAttachmentPath({ path: 'javascript:alert(1)' })).toBeNull();
    expect(safeAttachmentPath({ path: 'https://evil.example/x.png' })).toBeNull();
    expect(safeAttachmentPath({ path: '/uploads/../etc/passwd' })).toBeNull();
    expect(isThumbnail({ path: '/uploads/a.png', mimetype: 'image/png' })).toBe(true);
    expect(isThumbnail({ path: '/uploads/a.svg', mimetype: 'image/svg+xml' })).toBe(false);
    expect(isThumbnail({ path: '/uploads/a.pdf', mimetype: 'application/pdf' })).toBe(false);
  });
});

describe('mentions', () => {
  const people = [
    { _id: 'u1', name: 'Ada Lovelace' },
    { _id: 'u2', name: 'Bob' },
  ];
  it('finds the ids of names still mentioned', () => {
    expect(mentionedIds('hi @Ada Lovelace and @Bob.', people)).toEqual(['u1', 'u2']);
    expect(mentionedIds('mail bob@Bob.com', people)).toEqual([]);
    expect(mentionedIds('@Bobby hi', people)).toEqual([]);
  });
  it('spots the @query before the caret', () => {
    expect(mentionQueryAt('hello @Ad', 9)).toEqual({ start: 6, query: 'Ad' });
    expect(mentionQueryAt('@', 1)).toEqual({ start: 0, query: '' });
    expect(mentionQueryAt('mail a@b', 8)).toBeNull();
    expect(mentionQueryAt('@Ada done', 9)).toBeNull();
  });
});
