import type { z } from 'zod';
import { ValidationError } from './errors.js';

/**
 * Every event type the system may store, with its schema and schema version.
 * The event store refuses an event whose data fails its schema before writing it.
 */
export type EventSchemaEntry = Readonly<{ version: number; data: z.ZodType }>;

const registry = new Map<string, EventSchemaEntry>();

export function registerEvents(entries: Readonly<Record<string, EventSchemaEntry>>): void {
  for (const [type, entry] of Object.entries(entries)) registry.set(type, entry);
}

export function eventSchemaVersion(type: string): number {
  return registry.get(type)?.version ?? 1;
}

export function isKnownEventType(type: string): boolean {
  return registry.has(type);
}

/** Throws a ValidationError when `data` is not a valid `type` event. */
export function assertValidEvent(type: string, data: unknown): void {
  const entry = registry.get(type);
  if (!entry) throw new ValidationError(`Unknown event type: ${type}`);
  const result = entry.data.safeParse(data);
  if (!result.success) {
    throw new ValidationError(
      `Malformed ${type} event`,
      result.error.issues.map((i) => ({ field: i.path.join('.') || type, message: i.message })),
    );
  }
}
