import type { FieldIssue } from '../core/errors.js';
import { type FieldDto, type FieldType, fieldLimits, fieldMessages, type ShownFieldValue } from './field-vocabulary.js';

/**
 * Custom fields' definitions and a bug's values (issue 37), without zod: the server decides
 * with these and the web forms check with the same (through the vocabulary door).
 */

export type FieldOption = Readonly<{ id: string; name: string; removed: boolean }>;
export type FieldDef = Readonly<{
  id: string;
  /** Made from its first name, unique in the project for good: values, filters and sorts name it. */
  key: string;
  name: string;
  type: FieldType;
  /** Every option it has had, removed ones flagged, in order. */
  options: readonly FieldOption[];
  required: boolean;
  removed: boolean;
}>;

/** A value as stored: text, a URL, a day, a user id or an option id; a number; option ids. */
export type FieldValue = string | number | string[];
/** A bug's values by field id. */
export type FieldValues = Readonly<Record<string, FieldValue>>;

export const liveFields = (fields: readonly FieldDef[]): FieldDef[] => fields.filter((f) => !f.removed);
export const liveOptions = (field: FieldDef) => field.options.filter((o) => !o.removed);
export const sameName = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

/** A field as answers show it. */
export const toFieldDto = (field: FieldDef): FieldDto => ({
  _id: field.id,
  key: field.key,
  name: field.name,
  type: field.type,
  options: liveOptions(field).map((o) => o.name),
  required: field.required,
});

/** A field as the web knows it (its answer): the same rules, options named by their names. */
export const fieldOfDto = (dto: FieldDto): FieldDef => ({
  id: dto._id,
  key: dto.key,
  name: dto.name,
  type: dto.type,
  options: dto.options.map((name) => ({ id: name, name, removed: false })),
  required: dto.required,
  removed: false,
});

// ── a bug's values ──────────────────────────────────────────────────────────────

const dayPattern = /^\d{4}-\d{2}-\d{2}$/;
/** A real calendar day written YYYY-MM-DD (no 2026-13-01, no 30 February). */
export const isCalendarDay = (v: string) => {
  const time = dayPattern.test(v) ? Date.parse(`${v}T00:00:00Z`) : Number.NaN;
  return !Number.isNaN(time) && new Date(time).toISOString().slice(0, 10) === v;
};
const isLink = (v: string) => {
  if (v.length > fieldLimits.urlMax) return false;
  try {
    const url = new URL(v);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
};
const isEmpty = (v: unknown) => v === null || v === undefined || v === '' || (Array.isArray(v) && v.length === 0);

/** One value as sent, stored as the field keeps it; `issue` names the field when it cannot be. */
function storedValue(field: FieldDef, raw: unknown, knownUserIds: ReadonlySet<string>): FieldValue | FieldIssue {
  const issue = (message: string): FieldIssue => ({ field: `fields.${field.key}`, message });
  const options = liveOptions(field);
  const optionOf = (v: unknown) =>
    typeof v === 'string' ? options.find((o) => o.id === v || sameName(o.name, v)) : undefined;
  switch (field.type) {
    case 'text':
      return typeof raw === 'string' && raw.trim().length <= fieldLimits.textMax
        ? raw.trim()
        : issue(fieldMessages.text(field.name));
    case 'number': {
      const n = typeof raw === 'number' ? raw : typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : Number.NaN;
      return Number.isFinite(n) ? n : issue(fieldMessages.number(field.name));
    }
    case 'date': {
      // A date-time names its day (UTC); anything else is refused.
      const v = typeof raw === 'string' ? raw.trim() : '';
      const day = isCalendarDay(v)
        ? v
        : v.length > 10 && !Number.isNaN(Date.parse(v))
          ? new Date(v).toISOString().slice(0, 10)
          : '';
      return day ? day : issue(fieldMessages.date(field.name));
    }
    case 'select': {
      const option = optionOf(raw);
      return option
        ? option.id
        : issue(
            fieldMessages.select(
              field.name,
              options.map((o) => o.name),
            ),
          );
    }
    case 'multi_select': {
      const list = Array.isArray(raw) ? raw : [raw];
      const picked = list.map(optionOf);
      if (picked.some((o) => !o))
        return issue(
          fieldMessages.multiSelect(
            field.name,
            options.map((o) => o.name),
          ),
        );
      return [...new Set(picked.map((o) => o!.id))];
    }
    case 'user': {
      const userId =
        typeof raw === 'string'
          ? raw
          : typeof raw === 'object' && raw && '_id' in raw
            ? (raw as { _id: unknown })._id
            : null;
      return typeof userId === 'string' && knownUserIds.has(userId) ? userId : issue(fieldMessages.user(field.name));
    }
    case 'url':
      return typeof raw === 'string' && isLink(raw.trim()) ? raw.trim() : issue(fieldMessages.url(field.name));
  }
}

const sameValue = (a: FieldValue | undefined, b: FieldValue | undefined) =>
  Array.isArray(a) && Array.isArray(b) ? a.length === b.length && a.every((x, i) => x === b[i]) : a === b;

/**
 * The values a report or an edit sets, by field id (null clears one), against the project's
 * live fields. A key the project has no field for, a value of the wrong type, a required field
 * left empty (on a report: absent too): issues naming the field. Only changes are answered.
 */
export function fieldValueChanges(
  fields: readonly FieldDef[],
  sent: Readonly<Record<string, unknown>>,
  current: FieldValues,
  { creating, knownUserIds }: { creating: boolean; knownUserIds: ReadonlySet<string> },
): { changes: Record<string, FieldValue | null>; issues: FieldIssue[] } {
  const live = liveFields(fields);
  const byKey = new Map(live.map((f) => [f.key, f]));
  const issues: FieldIssue[] = [];
  const changes: Record<string, FieldValue | null> = {};
  for (const key of Object.keys(sent)) {
    if (!byKey.has(key)) issues.push({ field: `fields.${key}`, message: fieldMessages.unknown(key) });
  }
  for (const field of live) {
    const has = Object.hasOwn(sent, field.key);
    const raw = has ? sent[field.key] : undefined;
    if (isEmpty(raw)) {
      if (field.required && (has || creating)) {
        issues.push({ field: `fields.${field.key}`, message: fieldMessages.required(field.name) });
      } else if (has && current[field.id] !== undefined) changes[field.id] = null;
      continue;
    }
    const value = storedValue(field, raw, knownUserIds);
    if (typeof value === 'object' && !Array.isArray(value)) issues.push(value as FieldIssue);
    else if (!sameValue(value as FieldValue, current[field.id])) changes[field.id] = value as FieldValue;
  }
  return { changes, issues };
}

/** The user ids a payload's user fields name (write-api looks them up before the decision). */
export function userIdsNamed(fields: readonly FieldDef[], sent: Readonly<Record<string, unknown>>): string[] {
  return liveFields(fields)
    .filter((f) => f.type === 'user' && Object.hasOwn(sent, f.key))
    .flatMap((f) => {
      const raw = sent[f.key];
      const userId = typeof raw === 'object' && raw && '_id' in raw ? (raw as { _id: unknown })._id : raw;
      return typeof userId === 'string' && userId.length <= 100 ? [userId] : [];
    });
}

/** One stored value as answers show it (option names for option ids; an option removed since keeps its name). */
export function shownValue(field: FieldDef, value: FieldValue | undefined): ShownFieldValue {
  if (value === undefined) return null;
  if (field.type === 'select') return field.options.find((o) => o.id === value)?.name ?? null;
  if (field.type === 'multi_select') {
    const ids = Array.isArray(value) ? value : [value as string];
    return ids.flatMap((v) => field.options.filter((o) => o.id === v).map((o) => o.name));
  }
  return value as ShownFieldValue;
}

/**
 * A bug's `fields` in its answers: the live fields of its project it has a value for, by key (a
 * field added later changes no bug's answer until one is given).
 */
export function shownFields(fields: readonly FieldDef[], values: FieldValues): Record<string, ShownFieldValue> {
  const shown: Record<string, ShownFieldValue> = {};
  for (const field of fields) {
    if (!field.removed && values[field.id] !== undefined) shown[field.key] = shownValue(field, values[field.id]);
  }
  return shown;
}
