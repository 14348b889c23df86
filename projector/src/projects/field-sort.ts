import { type FieldDef, type FieldValue, liveFields } from '@bugtrail/domain';

/**
 * A bug's place in a list sorted by a custom field (issue 37), as one text that sorts in byte
 * order (`collate "C"`): rows of `bug_field_sort`, indexed by (field, key), so a page sorted by
 * a field reads its 25 rows in order instead of sorting every bug the filter keeps.
 *
 * A value's key starts with `0`, no value is `1` (after every value, as the jsonb order of the
 * unindexed path puts `{}` after every scalar). Numbers are their IEEE-754 bits made sortable,
 * days their `YYYY-MM-DD`, text and URLs lower-cased (the first 200 characters), a select its
 * option's place in the field's options (a multi-select its first), a user their id.
 */
export const MISSING_SORT_KEY = '1';
const TEXT_KEY_MAX = 200;

/** Sixteen hex digits that sort as the number does: the sign bit flipped, or every bit for a negative. */
export function numberSortKey(n: number): string {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, n === 0 ? 0 : n); // -0 sorts as 0
  let hi = view.getUint32(0);
  let lo = view.getUint32(4);
  if (hi & 0x80000000) {
    hi = ~hi >>> 0;
    lo = ~lo >>> 0;
  } else {
    hi = (hi | 0x80000000) >>> 0;
  }
  return hi.toString(16).padStart(8, '0') + lo.toString(16).padStart(8, '0');
}

const optionPlace = (field: FieldDef, optionId: string | undefined): string => {
  const at = optionId === undefined ? -1 : field.options.findIndex((o) => o.id === optionId);
  return at < 0 ? MISSING_SORT_KEY : `0${String(at).padStart(4, '0')}`;
};

/** The sort key of one field's stored value (undefined: none). */
export function fieldSortKey(field: FieldDef, value: FieldValue | undefined): string {
  if (value === undefined) return MISSING_SORT_KEY;
  switch (field.type) {
    case 'number':
      return typeof value === 'number' ? `0${numberSortKey(value)}` : MISSING_SORT_KEY;
    case 'select':
      return optionPlace(field, typeof value === 'string' ? value : undefined);
    case 'multi_select':
      return optionPlace(field, Array.isArray(value) ? value[0] : undefined);
    case 'text':
    case 'url':
      return typeof value === 'string' ? `0${value.toLowerCase().slice(0, TEXT_KEY_MAX)}` : MISSING_SORT_KEY;
    default:
      return typeof value === 'string' ? `0${value}` : MISSING_SORT_KEY;
  }
}

export type FieldSortRow = { field_id: string; bug_id: string; sort_key: string };

/** A bug's rows: one per live field of its project, with a value or not. */
export function fieldSortRows(
  bugId: string,
  fields: readonly FieldDef[],
  values: Readonly<Record<string, FieldValue>>,
): FieldSortRow[] {
  return liveFields(fields).map((field) => ({
    field_id: field.id,
    bug_id: bugId,
    sort_key: fieldSortKey(field, values[field.id]),
  }));
}
