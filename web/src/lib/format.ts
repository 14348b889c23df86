import { bugDefaults, statusDisplayName } from '@bugtrail/domain/vocabulary';
import { format, isValid, parseISO } from 'date-fns';
import type { Bug, BugStatus, Role, UserRef } from './types';

/** The spec's display defaults for missing fields. */
export const displayDefaults = {
  title: 'Untitled Bug',
  module: 'N/A',
  assigned: 'Unassigned',
  date: 'N/A',
  ...bugDefaults,
} as const;

function toDate(value: string | Date | null | undefined): Date | null {
  if (!value) return null;
  const date = typeof value === 'string' ? parseISO(value) : value;
  return isValid(date) ? date : null;
}

/** Tables: "1st Jan 2024". */
export function formatTableDate(value: string | Date | null | undefined): string {
  const date = toDate(value);
  return date ? format(date, 'do MMM yyyy') : displayDefaults.date;
}

/** Everywhere else: "DD MMM YYYY", e.g. "01 Jan 2024". */
export function formatDate(value: string | Date | null | undefined): string {
  const date = toDate(value);
  return date ? format(date, 'dd MMM yyyy') : displayDefaults.date;
}

export function formatDateTime(value: string | Date | null | undefined): string {
  const date = toDate(value);
  return date ? format(date, 'dd MMM yyyy, HH:mm') : displayDefaults.date;
}

const numberFormat = new Intl.NumberFormat('en-US');
/** Thousands grouped by commas: 12,345. */
export function formatNumber(value: number | null | undefined): string {
  return numberFormat.format(typeof value === 'number' && Number.isFinite(value) ? value : 0);
}

/** A status in the words of the role's screens (Pending/Resolved for admins and developers); the mapping is the domain's. */
export function statusLabel(status: BugStatus | null | undefined, role: Role): string {
  return statusDisplayName(status ?? displayDefaults.status, role);
}

export function bugTitle(bug: Pick<Bug, 'title'>): string {
  return bug.title?.trim() || displayDefaults.title;
}

/** A bug's short name: its key (`WEB-7`), else its number (`#42`; rows that carry no key), else nothing. */
export function bugName(bug: { key?: string | null; number?: number | null }): string {
  return bug.key || (bug.number ? `#${bug.number}` : '');
}

export function bugModule(bug: Pick<Bug, 'module'>): string {
  return bug.module?.trim() || displayDefaults.module;
}

export function assigneeNames(assigned: UserRef[] | null | undefined): string {
  const names = (assigned ?? []).map((user) => user.name).filter(Boolean);
  return names.length ? names.join(', ') : displayDefaults.assigned;
}

export function reporterName(createdBy: Bug['createdBy'] | null | undefined): string {
  return createdBy?.name || displayDefaults.module;
}

export function reporterId(createdBy: Bug['createdBy'] | null | undefined): string | null {
  return createdBy?._id ?? null;
}

export function profileImage(user: Pick<UserRef, 'profileImageURL' | 'profileImageUrl'> | null | undefined) {
  return user?.profileImageURL || user?.profileImageUrl || null;
}

export function initials(name: string | null | undefined): string {
  const parts = (name ?? '').trim().split(/\s+/).filter(Boolean);
  if (parts.length === 0) return '?';
  const first = parts[0]?.[0] ?? '';
  const last = parts.length > 1 ? (parts[parts.length - 1]?.[0] ?? '') : '';
  return (first + last).toUpperCase();
}

/** Rounded percent of completed items over total; 0 for an empty list. */
export function checklistProgress(items: { completed: boolean }[] | null | undefined): number {
  const list = items ?? [];
  if (list.length === 0) return 0;
  return Math.round((list.filter((item) => item.completed).length / list.length) * 100);
}

export function greeting(now: Date): string {
  const hour = now.getHours();
  if (hour < 12) return 'Good Morning';
  if (hour < 18) return 'Good Afternoon';
  return 'Good Evening';
}

/** The greeting line's date: "Monday, 01 Jan 2024". */
export function formatToday(now: Date): string {
  return format(now, 'EEEE, dd MMM yyyy');
}
