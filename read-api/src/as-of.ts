import { z } from 'zod';

/**
 * Instants in queries: a date (`2026-11-01`, UTC) or a date and time with its offset
 * (`2026-11-01T12:00:00Z`). A date as `to` or `asOf` means the end of that day (the next
 * midnight), so `from=2026-10-01&to=2026-10-31` is all of October.
 */
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:?\d{2})$/i;

function parseInstant(text: string, endOfDay: boolean): Date | null {
  if (DATE.test(text)) {
    const day = new Date(`${text}T00:00:00.000Z`);
    if (Number.isNaN(day.getTime()) || day.toISOString().slice(0, 10) !== text) return null;
    return endOfDay ? new Date(day.getTime() + 86_400_000) : day;
  }
  if (!DATE_TIME.test(text)) return null;
  const at = new Date(text);
  return Number.isNaN(at.getTime()) ? null : at;
}

export const instant = (name: string, endOfDay: boolean) => {
  const message = `${name} must be a date (2026-11-01) or a date and time (2026-11-01T12:00:00Z)`;
  return z
    .string()
    .max(40, message)
    .refine((text) => parseInstant(text, endOfDay) !== null, message)
    .transform((text) => parseInstant(text, endOfDay)!);
};

export const asOf = instant('asOf', true)
  .optional()
  .describe('Answer as it was at this moment (a date: the end of that day; later than now: now). Default now');

export const asOfQuery = z.object({ asOf });

/** An `asOf` later than now is now: an answer about the future would still change. */
export function effectiveAsOf(asOf: Date | undefined): Date {
  const now = new Date();
  return asOf && asOf < now ? asOf : now;
}
