import { inject } from 'vitest';
import type {} from './global-setup.js'; // the `adminDatabaseUrl` the global setup provides
import { createThrowawayDatabase, type ThrowawayDatabase } from './throwaway-database.js';

/** The run's PostgreSQL (admin database), from the global setup. */
export function adminUrl(): string {
  return inject('adminDatabaseUrl');
}

/** A fresh, empty database for one test file (dropped by the returned function). */
export function createTestDatabase(base = adminUrl()): Promise<ThrowawayDatabase> {
  return createThrowawayDatabase(base);
}
