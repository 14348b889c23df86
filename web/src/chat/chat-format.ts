import { differenceInCalendarDays, format, isSameDay, isValid, parseISO } from 'date-fns';
import type { Attachment, Chat, ChatUser, LastMessage } from './types';

/** Spec §9: last-message preview 30 characters; scroll thresholds; chat list refresh. */
export const PREVIEW_LENGTH = 30;
export const NEAR_BOTTOM_PX = 50;
export const NEAR_TOP_PX = 100;
export const MAX_ATTACHMENTS = 5;
export const MAX_ATTACHMENT_BYTES = 20 * 1024 * 1024;

export const chatTexts = {
  noMessagesPreview: 'No messages yet',
  deletedMessage: 'This message was deleted',
  noChats: 'No chats yet. Create one to get started.',
  noMessagesTitle: 'No messages yet',
  noMessagesHint: 'Send a message to start the conversation',
  noChatSelected: 'No chat selected',
  noChatSelectedHint: 'Select an existing chat or create a new one to start messaging',
  onlyAdminsParticipants: 'Only chat admins can modify participants',
  onlyAdminsAi: 'Only chat admins can modify AI settings',
  deleteWarning: 'Deleting this chat will permanently remove all messages. This action cannot be undone.',
  sending: 'Sending...',
  saving: 'Saving...',
  fetchChatsFailed: 'Failed to fetch chats',
  fetchChatFailed: 'Failed to fetch chat',
  fetchMessagesFailed: 'Failed to fetch messages',
  createFailed: 'Failed to create chat',
  updateFailed: 'Failed to update chat',
  deleteFailed: 'Failed to delete chat',
  sendFailed: 'Failed to send message',
  updateLogged: 'Error updating chat',
  deleteLogged: 'Error deleting chat',
  aiWriting: 'writing…',
  aiThinking: 'Thinking…',
  aiStopping: 'Stopping…',
  stopFailed: 'Failed to stop the answer',
} as const;

function toDate(value: string | Date | null | undefined): Date | null {
  if (!value) return null;
  const date = typeof value === 'string' ? parseISO(value) : value;
  return isValid(date) ? date : null;
}

/**
 * The chat list's time label: clock time if today, 'Yesterday', the weekday if under
 * 7 days ago, otherwise month and day.
 */
export function chatTimeLabel(value: string | Date | null | undefined, now: Date = new Date()): string {
  const date = toDate(value);
  if (!date) return '';
  if (isSameDay(date, now)) return format(date, 'HH:mm');
  const days = differenceInCalendarDays(now, date);
  if (days === 1) return 'Yesterday';
  if (days > 1 && days < 7) return format(date, 'EEEE');
  return format(date, 'MMM d');
}

/** The time under a message bubble. */
export function messageTime(value: string | Date | null | undefined, now: Date = new Date()): string {
  const date = toDate(value);
  if (!date) return '';
  if (isSameDay(date, now)) return format(date, 'HH:mm');
  if (date.getFullYear() === now.getFullYear()) return format(date, 'MMM d, HH:mm');
  return format(date, 'MMM d, yyyy, HH:mm');
}

export function truncate(text: string, length: number = PREVIEW_LENGTH): string {
  const chars = [...text];
  return chars.length > length ? `${chars.slice(0, length).join('')}...` : text;
}

/** "No messages yet", "This message was deleted", or "{sender}: {text…}" / "AI: {text…}". */
export function lastMessagePreview(message: LastMessage | null | undefined): string {
  if (!message) return chatTexts.noMessagesPreview;
  if (message.isDeleted) return chatTexts.deletedMessage;
  const text = (message.content ?? '').replace(/\s+/g, ' ').trim();
  const body = text ? truncate(text) : 'Attachment';
  if (message.isAIMessage) return `AI: ${body}`;
  const sender = message.sender?.name?.trim();
  return sender ? `${sender}: ${body}` : body;
}

export function idOf(user: ChatUser | string | null | undefined): string {
  if (!user) return '';
  return typeof user === 'string' ? user : user._id;
}

export function memberIds(list: (ChatUser | string)[] | null | undefined): string[] {
  return (list ?? []).map(idOf).filter(Boolean);
}

export function isChatAdmin(chat: Pick<Chat, 'admins'> | null | undefined, userId: string | null | undefined) {
  return !!chat && !!userId && memberIds(chat.admins).includes(userId);
}

export function isParticipant(chat: Pick<Chat, 'participants'> | null | undefined, userId: string | null | undefined) {
  return !!chat && !!userId && memberIds(chat.participants).includes(userId);
}

export type Members = { participants: string[]; admins: string[] };

/** Removing a participant removes their admin right too. */
export function toggleParticipant(members: Members, userId: string, on: boolean): Members {
  if (on) {
    return members.participants.includes(userId)
      ? members
      : { participants: [...members.participants, userId], admins: members.admins };
  }
  return {
    participants: members.participants.filter((id) => id !== userId),
    admins: members.admins.filter((id) => id !== userId),
  };
}

/** Making someone an admin adds them as a participant. */
export function toggleAdmin(members: Members, userId: string, on: boolean): Members {
  if (on) {
    return {
      participants: members.participants.includes(userId) ? members.participants : [...members.participants, userId],
      admins: members.admins.includes(userId) ? members.admins : [...members.admins, userId],
    };
  }
  return { participants: members.participants, admins: members.admins.filter((id) => id !== userId) };
}

export function formatBytes(bytes: number | null | undefined): string {
  if (typeof bytes !== 'number' || !Number.isFinite(bytes) || bytes < 0) return '';
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/** The files that may be added to `current`, and why the others may not. */
export function checkAttachments(
  current: number,
  files: { name: string; size: number }[],
): { accepted: number[]; errors: string[] } {
  const accepted: number[] = [];
  const errors: string[] = [];
  let room = MAX_ATTACHMENTS - current;
  files.forEach((file, index) => {
    if (file.size > MAX_ATTACHMENT_BYTES) {
      errors.push(`${file.name} is larger than 20 MB`);
      return;
    }
    if (file.size === 0) {
      errors.push(`${file.name} is empty`);
      return;
    }
    if (room <= 0) {
      if (!errors.includes(tooMany)) errors.push(tooMany);
      return;
    }
    room -= 1;
    accepted.push(index);
  });
  return { accepted, errors };
}
const tooMany = `You can attach at most ${MAX_ATTACHMENTS} files`;

const thumbnailTypes = new Set(['image/png', 'image/jpeg', 'image/jpg', 'image/gif', 'image/webp']);

/** Only server-made paths under /uploads/ become links or images. */
export function safeAttachmentPath(attachment: Pick<Attachment, 'path'>): string | null {
  const path = attachment.path ?? '';
  if (!path.startsWith('/uploads/') || path.includes('..') || /[\s"'<>\\]/.test(path)) return null;
  return path;
}

export function isThumbnail(attachment: Pick<Attachment, 'mimetype' | 'path'>): boolean {
  return thumbnailTypes.has((attachment.mimetype ?? '').toLowerCase()) && safeAttachmentPath(attachment) !== null;
}

/** The text and the ids of participants still @-mentioned in it. */
export function mentionedIds(content: string, candidates: { _id: string; name: string }[]): string[] {
  const ids: string[] = [];
  for (const user of candidates) {
    if (!user.name) continue;
    const pattern = new RegExp(`(^|\\s)@${escapeRegExp(user.name)}(?=$|[\\s.,!?;:)])`, 'u');
    if (pattern.test(content) && !ids.includes(user._id)) ids.push(user._id);
  }
  return ids;
}

export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The @query being typed just before the caret, if any. */
export function mentionQueryAt(text: string, caret: number): { start: number; query: string } | null {
  const before = text.slice(0, caret);
  const match = /(^|\s)@([^\s@]{0,30})$/u.exec(before);
  if (!match) return null;
  const query = match[2] ?? '';
  return { start: caret - query.length - 1, query };
}
