import { type StatusDisplayName, statusDisplayNamesFor } from '@bugtrail/domain/vocabulary';

/**
 * Search params are checked by hand, not with zod: these validators run in the entry
 * chunk, which the landing page shares, and zod would double its size.
 */
export function pickOne<T extends string>(value: unknown, allowed: readonly T[]): T | undefined {
  return typeof value === 'string' && (allowed as readonly string[]).includes(value) ? (value as T) : undefined;
}

export function pickText(value: unknown, max = 200): string | undefined {
  return typeof value === 'string' && value.trim() ? value.slice(0, max) : undefined;
}

/** Status tabs and filters, in each role's words (the domain's display names). */
export const testerTabs = statusDisplayNamesFor('tester');
export const teamTabs = statusDisplayNamesFor('admin');

export type TesterTab = StatusDisplayName<'tester'>;
export type TeamTab = StatusDisplayName<'admin'>;

/** Keys are left out when absent, so links need not pass them. */
export function compact<T extends Record<string, unknown>>(
  value: T,
): Partial<{ [K in keyof T]: Exclude<T[K], undefined> }> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<{
    [K in keyof T]: Exclude<T[K], undefined>;
  }>;
}
