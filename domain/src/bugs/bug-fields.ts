import { z } from 'zod';
import type { FieldIssue } from '../core/errors.js';
import { type FieldDef, type FieldValue, type FieldValues, fieldValueChanges } from '../projects/fields.js';
import type { BugEvent } from './bug-events.js';

/**
 * A bug's custom field values (api.md "Custom fields, workflow states and time", issue 37): set
 * with the report or the edit (`fields: { <key>: value }`), recorded by field id (and option
 * id) so renames follow. A value null clears it.
 */
const id = z.string().min(1).max(100);
const value = z.union([z.string().max(2048), z.number(), z.array(id).max(100)]);
export const bugFieldEventSchemas = {
  BugFieldsChanged: {
    version: 1,
    data: z.object({ bugId: id, values: z.record(id, value.nullable()) }),
  },
} as const;

/** What a report or an edit carries of fields: the project's, the values sent, the users they name that exist. */
export type FieldInput = Readonly<{
  defs: readonly FieldDef[];
  sent: Readonly<Record<string, unknown>>;
  knownUserIds: readonly string[];
}>;

/** The event that sets what changed, and the issues that refuse it. */
export function fieldEvents(
  bugId: string,
  input: FieldInput | undefined,
  current: FieldValues,
  creating: boolean,
): { events: BugEvent[]; issues: FieldIssue[] } {
  if (!input) return { events: [], issues: [] };
  const { changes, issues } = fieldValueChanges(input.defs, input.sent, current, {
    creating,
    knownUserIds: new Set(input.knownUserIds),
  });
  const events: BugEvent[] =
    Object.keys(changes).length > 0 ? [{ type: 'BugFieldsChanged', data: { bugId, values: changes } }] : [];
  return { events, issues };
}

/** The values after `event`. */
export function evolveFieldValues(values: FieldValues, event: BugEvent): FieldValues {
  if (event.type !== 'BugFieldsChanged') return values;
  const next: Record<string, FieldValue> = { ...values };
  for (const [fieldId, v] of Object.entries(event.data.values)) {
    if (v === null) delete next[fieldId];
    else next[fieldId] = v;
  }
  return next;
}
