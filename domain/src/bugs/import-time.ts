/**
 * The times an export writes, read as instants (docs/import.md "Times"). A time with an
 * offset (`Z`, `+02:00`) is that instant; one without is a wall-clock time in the import's
 * time zone (IMPORT_TIMEZONE), daylight saving included. Forms read: ISO 8601
 * (`2024-03-05T14:22:10Z`, `2024-03-05 14:22`), `2024/03/05 14:22`, Redmine's US form
 * (`03/05/2024 02:22 PM`: month first), Jira's (`05/Mar/24 2:22 PM`) and the dotted
 * European one (`05.03.2024 14:22`). A day alone is its midnight.
 */

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

type Wall = { year: number; month: number; day: number; hour: number; minute: number; second: number; ms: number };

const ISO =
  /^(\d{4})-(\d{1,2})-(\d{1,2})(?:[T ]+(\d{1,2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?)?\s*(Z|[+-]\d{2}(?::?\d{2})?)?$/i;
const SLASHED_YMD = /^(\d{4})\/(\d{1,2})\/(\d{1,2})(?:\s+(.+))?$/;
const US = /^(\d{1,2})\/(\d{1,2})\/(\d{2}|\d{4})(?:\s+(.+))?$/;
const JIRA = /^(\d{1,2})[/ -]([a-z]{3,9})[/ -](\d{2}|\d{4})(?:\s+(.+))?$/i;
const DOTTED = /^(\d{1,2})\.(\d{1,2})\.(\d{4})(?:\s+(.+))?$/;
const CLOCK = /^(\d{1,2}):(\d{2})(?::(\d{2}))?(?:\s*([ap])\.?m\.?)?$/i;

/** Whether the runtime knows this IANA zone (IMPORT_TIMEZONE is checked at start). */
export function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/**
 * The instant a source's time names, as ISO 8601 UTC; null when the text is empty;
 * undefined when it is not a time this reader knows.
 */
export function parseSourceTime(text: string | null | undefined, timeZone: string): string | null | undefined {
  const value = (text ?? '').trim();
  if (!value) return null;
  const iso = ISO.exec(value);
  if (iso) {
    const wall = checked({
      year: Number(iso[1]),
      month: Number(iso[2]),
      day: Number(iso[3]),
      hour: Number(iso[4] ?? 0),
      minute: Number(iso[5] ?? 0),
      second: Number(iso[6] ?? 0),
      ms: iso[7] ? Number(iso[7].slice(0, 3).padEnd(3, '0')) : 0,
    });
    if (!wall) return undefined;
    const offset = iso[8];
    if (offset) return new Date(wallMs(wall) - offsetMs(offset)).toISOString();
    return inZone(wall, timeZone);
  }
  const day = dayAndClock(value);
  if (!day) return undefined;
  const clock = day.clock ? parseClock(day.clock) : { hour: 0, minute: 0, second: 0 };
  if (!clock) return undefined;
  const wall = checked({ ...day, ...clock, ms: 0 });
  return wall ? inZone(wall, timeZone) : undefined;
}

/** A day written as a date only (a due date): its UTC midnight, as the report form stores days. */
export function parseSourceDay(text: string | null | undefined, timeZone: string): string | null | undefined {
  const value = (text ?? '').trim();
  if (!value) return null;
  return parseSourceTime(value, /\d:\d/.test(value) ? timeZone : 'UTC');
}

function dayAndClock(value: string): { year: number; month: number; day: number; clock: string | undefined } | null {
  let m = SLASHED_YMD.exec(value);
  if (m) return { year: Number(m[1]), month: Number(m[2]), day: Number(m[3]), clock: m[4] };
  m = US.exec(value);
  if (m) return { year: fullYear(m[3]!), month: Number(m[1]), day: Number(m[2]), clock: m[4] };
  m = JIRA.exec(value);
  if (m) {
    const month = MONTHS.indexOf(m[2]!.slice(0, 3).toLowerCase()) + 1;
    if (month === 0) return null;
    return { year: fullYear(m[3]!), month, day: Number(m[1]), clock: m[4] };
  }
  m = DOTTED.exec(value);
  if (m) return { year: Number(m[3]), month: Number(m[2]), day: Number(m[1]), clock: m[4] };
  return null;
}

function parseClock(text: string): { hour: number; minute: number; second: number } | null {
  const m = CLOCK.exec(text.trim());
  if (!m) return null;
  let hour = Number(m[1]);
  const meridiem = m[4]?.toLowerCase();
  if (meridiem) {
    if (hour < 1 || hour > 12) return null;
    hour = (hour % 12) + (meridiem === 'p' ? 12 : 0);
  }
  return { hour, minute: Number(m[2]), second: Number(m[3] ?? 0) };
}

/** Two-digit years as Jira writes them: 00–69 are 2000s, 70–99 the 1900s. */
const fullYear = (text: string) => {
  const n = Number(text);
  return text.length === 2 ? (n < 70 ? 2000 + n : 1900 + n) : n;
};

function checked(wall: Wall): Wall | null {
  const { year, month, day, hour, minute, second } = wall;
  if (year < 1970 || year > 9999 || month < 1 || month > 12 || day < 1) return null;
  if (day > new Date(Date.UTC(year, month, 0)).getUTCDate()) return null;
  if (hour > 23 || minute > 59 || second > 59) return null;
  return wall;
}

const wallMs = (w: Wall) => Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second, w.ms);

function offsetMs(offset: string): number {
  if (offset.toUpperCase() === 'Z') return 0;
  const sign = offset.startsWith('-') ? -1 : 1;
  const digits = offset.slice(1).replace(':', '');
  return sign * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2, 4) || 0)) * 60_000;
}

const UTC_ZONES = new Set(['utc', 'etc/utc', 'gmt', 'etc/gmt', 'z']);
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(zone: string): Intl.DateTimeFormat {
  let f = formatters.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(zone, f);
  }
  return f;
}

/** How far the zone's clocks are ahead of UTC at this instant. */
function zoneOffsetAt(utc: number, zone: string): number {
  const parts: Record<string, number> = {};
  for (const part of formatter(zone).formatToParts(new Date(utc))) {
    if (part.type !== 'literal') parts[part.type] = Number(part.value);
  }
  const shown = Date.UTC(parts.year!, parts.month! - 1, parts.day!, parts.hour! % 24, parts.minute!, parts.second!);
  return shown - (utc - (((utc % 1000) + 1000) % 1000));
}

/**
 * The instant a wall-clock time names in a zone. A time skipped by a spring-forward change
 * is read with the offset before it; a repeated one (autumn) as its first occurrence.
 */
function inZone(wall: Wall, zone: string): string | undefined {
  const local = wallMs(wall);
  if (UTC_ZONES.has(zone.toLowerCase())) return new Date(local).toISOString();
  try {
    const before = local - zoneOffsetAt(local - HALF_DAY, zone);
    const after = local - zoneOffsetAt(local + HALF_DAY, zone);
    const fits = [before, after].filter((utc) => zoneOffsetAt(utc, zone) === local - utc);
    return new Date(fits.length > 0 ? Math.min(...fits) : before).toISOString();
  } catch {
    return undefined;
  }
}

const HALF_DAY = 12 * 60 * 60 * 1000;
