import type { FieldDef } from '@bugtrail/domain';
import { describe, expect, it } from 'vitest';
import { fieldSortKey, fieldSortRows, MISSING_SORT_KEY, numberSortKey } from './field-sort.js';

const field = (type: FieldDef['type'], options: string[] = []): FieldDef => ({
  id: `f-${type}`,
  key: type,
  name: type,
  type,
  options: options.map((id) => ({ id, name: id.toUpperCase(), removed: id.startsWith('gone') })),
  required: false,
  removed: false,
});

/** Byte order, as `collate "C"` compares (the keys are ASCII). */
const byKey = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

describe('custom field sort keys', () => {
  it('orders numbers as numbers: negatives, zeros, fractions and extremes', () => {
    let seed = 37;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const numbers = [
      0,
      -0,
      1,
      -1,
      0.5,
      -0.5,
      1e-300,
      -1e-300,
      Number.MAX_VALUE,
      -Number.MAX_VALUE,
      Number.MIN_VALUE,
      2 ** 53,
      -(2 ** 53),
      ...Array.from({ length: 500 }, () => (random() - 0.5) * 10 ** Math.floor(random() * 12)),
    ];
    const sortedByKey = [...numbers].sort((a, b) => byKey(numberSortKey(a), numberSortKey(b)));
    const sortedByValue = [...numbers].sort((a, b) => a - b);
    expect(sortedByKey.map((n) => (n === 0 ? 0 : n))).toEqual(sortedByValue.map((n) => (n === 0 ? 0 : n)));
    expect(numberSortKey(-0)).toBe(numberSortKey(0));
    expect(numberSortKey(3)).toMatch(/^[0-9a-f]{16}$/);
  });

  it('puts a bug without a value after every value of each type', () => {
    const cases: [FieldDef, unknown][] = [
      [field('number'), -1e300],
      [field('number'), 1e300],
      [field('text'), '~~~ tildes sort late'],
      [field('url'), 'https://zzz.example'],
      [field('date'), '9999-12-31'],
      [field('select', ['a', 'b']), 'b'],
      [field('multi_select', ['a', 'b']), ['b']],
      [field('user'), 'user-zzz'],
    ];
    for (const [f, value] of cases) {
      const key = fieldSortKey(f, value as never);
      expect(byKey(key, MISSING_SORT_KEY), `${f.type} ${String(value)}`).toBe(-1);
      expect(fieldSortKey(f, undefined)).toBe(MISSING_SORT_KEY);
    }
  });

  it('sorts text by its lower case, days by date and selects by their options’ order', () => {
    const text = field('text');
    expect(byKey(fieldSortKey(text, 'apple'), fieldSortKey(text, 'Banana'))).toBe(-1);
    expect(fieldSortKey(text, 'ABC')).toBe(fieldSortKey(text, 'abc'));
    expect(fieldSortKey(text, 'x'.repeat(500))).toHaveLength(201);
    const day = field('date');
    expect(byKey(fieldSortKey(day, '2026-02-01'), fieldSortKey(day, '2026-10-01'))).toBe(-1);
    const select = field('select', ['high', 'gone-mid', 'low']);
    expect([fieldSortKey(select, 'low'), fieldSortKey(select, 'high')].sort(byKey)).toEqual([
      fieldSortKey(select, 'high'),
      fieldSortKey(select, 'low'),
    ]);
    // A removed option keeps its place (its bugs still hold it); an unknown id is no value.
    expect(byKey(fieldSortKey(select, 'gone-mid'), fieldSortKey(select, 'low'))).toBe(-1);
    expect(fieldSortKey(select, 'never-an-option')).toBe(MISSING_SORT_KEY);
    const multi = field('multi_select', ['a', 'b']);
    expect(fieldSortKey(multi, ['b', 'a'])).toBe(fieldSortKey(multi, ['b']));
    // A value of the wrong shape (never stored, but a row must still be written) is no value.
    expect(fieldSortKey(field('number'), 'seven' as never)).toBe(MISSING_SORT_KEY);
  });

  it('gives a bug one row per live field of its project, with a value or not', () => {
    const removed: FieldDef = { ...field('text'), id: 'f-removed', removed: true };
    const rows = fieldSortRows('bug-1', [field('number'), field('select', ['a']), removed], { 'f-number': 3 });
    expect(rows).toEqual([
      { bug_id: 'bug-1', field_id: 'f-number', sort_key: fieldSortKey(field('number'), 3) },
      { bug_id: 'bug-1', field_id: 'f-select', sort_key: MISSING_SORT_KEY },
    ]);
  });
});
