/** UTC days for the Flow page's range: presets, labels and the CSV file names (no imports: the e2e spec reads it too). */

type Range = { from?: string | undefined; to?: string | undefined };

const DAY_MS = 86_400_000;

export function toDay(date: Date): string {
  return date.toISOString().slice(0, 10);
}

function dayToDate(day: string): Date {
  return new Date(`${day}T00:00:00Z`);
}

export type RangePreset = { id: 'last-30-days' | 'last-month' | 'all-time'; label: string; from?: string; to?: string };

/**
 * The preset ranges, counted back from the "as of" day when one is chosen (what "last
 * month" meant then), else from today (UTC). Last month is its first to its last day.
 */
export function rangePresets(asOf: string | undefined, now = new Date()): RangePreset[] {
  const today = asOf ? dayToDate(asOf) : dayToDate(toDay(now));
  const monthStart = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth() - 1, 1));
  const monthEnd = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), 0));
  return [
    {
      id: 'last-30-days',
      label: 'Last 30 days',
      from: toDay(new Date(today.getTime() - 29 * DAY_MS)),
      to: toDay(today),
    },
    { id: 'last-month', label: 'Last month', from: toDay(monthStart), to: toDay(monthEnd) },
    { id: 'all-time', label: 'All time' },
  ];
}

export function isPresetActive(preset: RangePreset, search: Range): boolean {
  return preset.from === search.from && preset.to === search.to;
}

const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'] as const;
const pad = (n: number) => String(n).padStart(2, '0');

function toDate(value: string | Date): Date {
  return typeof value === 'string' ? new Date(value.length === 10 ? `${value}T00:00:00Z` : value) : value;
}

/** "01 Oct 2026" (the app's date style), for a UTC day or an instant, read in UTC. */
export function formatDay(value: string | Date): string {
  const date = toDate(value);
  if (Number.isNaN(date.getTime())) return '—';
  return `${pad(date.getUTCDate())} ${months[date.getUTCMonth()]} ${date.getUTCFullYear()}`;
}

/** "1 Oct": axis ticks. */
export function formatShortDay(date: Date): string {
  return `${date.getUTCDate()} ${months[date.getUTCMonth()]}`;
}

/** "14:03" in UTC. */
export function formatTime(date: Date): string {
  return `${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}`;
}

/** "24 Nov 2026, 14:03 UTC": the moment an answer is for. */
export function formatMoment(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? '—' : `${formatDay(date)}, ${formatTime(date)} UTC`;
}

/** The range in words: "All time", "01 Oct 2026 – 31 Oct 2026", "From 01 Oct 2026". */
export function describeRange(search: Range): string {
  if (search.from && search.to) return `${formatDay(search.from)} – ${formatDay(search.to)}`;
  if (search.from) return `From ${formatDay(search.from)}`;
  if (search.to) return `Until ${formatDay(search.to)}`;
  return 'All time';
}

/** The Monday of an ISO week written 2026-W47 (UTC). */
export function isoWeekStart(week: string): Date | null {
  const match = /^(\d{4})-W(\d{2})$/.exec(week);
  if (!match) return null;
  const year = Number(match[1]);
  const jan4 = new Date(Date.UTC(year, 0, 4));
  const week1Monday = jan4.getTime() - ((jan4.getUTCDay() + 6) % 7) * DAY_MS;
  return new Date(week1Monday + (Number(match[2]) - 1) * 7 * DAY_MS);
}

/** The ISO week (2026-W47) a UTC day falls in: the week, and the year, of its Thursday. */
export function isoWeekOf(date: Date): string {
  const thursday = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate()));
  thursday.setUTCDate(thursday.getUTCDate() + 3 - ((thursday.getUTCDay() + 6) % 7));
  const year = thursday.getUTCFullYear();
  const week1 = isoWeekStart(`${year}-W01`)!;
  const week = 1 + Math.floor((thursday.getTime() - week1.getTime()) / (7 * DAY_MS));
  return `${year}-W${String(week).padStart(2, '0')}`;
}

/** Every ISO week from the first to the last given, the missing ones as zeros: a week axis without gaps. */
export function fillWeeks<T extends { week: string }>(rows: T[], empty: (week: string) => T): T[] {
  const first = rows[0] ? isoWeekStart(rows[0].week) : null;
  const last = rows.at(-1) ? isoWeekStart(rows.at(-1)!.week) : null;
  if (!first || !last) return rows;
  const byWeek = new Map(rows.map((row) => [row.week, row]));
  const filled: T[] = [];
  for (let t = first.getTime(); t <= last.getTime() && filled.length < 1000; t += 7 * DAY_MS) {
    const week = isoWeekOf(new Date(t));
    filled.push(byWeek.get(week) ?? empty(week));
  }
  return filled;
}
