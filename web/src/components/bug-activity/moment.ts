import { format, formatDistanceStrict, isValid, parseISO } from 'date-fns';
import { useEffect, useState } from 'react';

/** How the time travel writes moments: exact to the second, relative in rows, local in the picker. */

const toDate = (iso: string) => {
  const date = parseISO(iso);
  return isValid(date) ? date : null;
};

/** "12 Mar 2025, 14:03:05": the exact time (hover titles, the banner). */
export function formatExact(iso: string): string {
  const date = toDate(iso);
  return date ? format(date, 'dd MMM yyyy, HH:mm:ss') : iso;
}

/** "3 minutes ago"; a moment a little ahead of this clock reads "just now". */
export function formatRelative(iso: string, now: number): string {
  const date = toDate(iso);
  if (!date) return iso;
  if (now - date.getTime() < 45_000) return 'just now';
  return formatDistanceStrict(date, now, { addSuffix: true });
}

/** A `datetime-local` value (local time, to the second). */
export function toLocalInput(iso: string | undefined): string {
  const date = iso ? toDate(iso) : null;
  return date ? format(date, "yyyy-MM-dd'T'HH:mm:ss") : '';
}

/** A `datetime-local` value back to an ISO instant, or undefined while it is incomplete. */
export function fromLocalInput(value: string): string | undefined {
  if (!value) return undefined;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}

/** The clock, ticking every `ms`, so relative times move on their own. */
export function useNow(ms = 30_000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), ms);
    return () => clearInterval(timer);
  }, [ms]);
  return now;
}

/** The slider's stop for a moment: the last change at or before it. */
export function momentIndex(moments: string[], at: string | undefined): number {
  if (at === undefined) return moments.length - 1;
  const limit = Date.parse(at);
  let index = 0;
  moments.forEach((moment, i) => {
    if (Date.parse(moment) <= limit) index = i;
  });
  return index;
}
