/**
 * Durations the way the Flow page shows them: "45 sec", "45 min", "5.0 hours",
 * "3.2 days". Pure, so the e2e spec formats the API's seconds with the same function and
 * compares with the page.
 */
const MINUTE = 60;
const HOUR = 3600;
const DAY = 86_400;

export function formatDuration(seconds: number | null | undefined): string {
  if (typeof seconds !== 'number' || !Number.isFinite(seconds)) return '—';
  const s = Math.max(0, seconds);
  if (s < 1) return '< 1 sec';
  if (Math.round(s) < MINUTE) return `${Math.round(s)} sec`;
  if (Math.round(s / MINUTE) < 60) return `${Math.round(s / MINUTE)} min`;
  const hours = (s / HOUR).toFixed(1);
  if (Number(hours) < 24) return `${hours} ${hours === '1.0' ? 'hour' : 'hours'}`;
  const days = (s / DAY).toFixed(1);
  return `${days} ${days === '1.0' ? 'day' : 'days'}`;
}

/** The exact value, for a title attribute. */
export function exactSeconds(seconds: number | null | undefined): string | undefined {
  return typeof seconds === 'number' && Number.isFinite(seconds) ? `${seconds} seconds` : undefined;
}

export type DurationUnit = { name: 'days' | 'hours' | 'minutes' | 'seconds'; seconds: number };

/**
 * The unit a chart axis counts in: days, unless the longest value is shorter than a day
 * (a young project's bugs close within hours), so the axis never reads 0.00.
 */
export function durationUnitFor(maxSeconds: number): DurationUnit {
  if (maxSeconds >= DAY) return { name: 'days', seconds: DAY };
  if (maxSeconds >= HOUR) return { name: 'hours', seconds: HOUR };
  if (maxSeconds >= MINUTE) return { name: 'minutes', seconds: MINUTE };
  return { name: 'seconds', seconds: 1 };
}
