import type { AutomationCondition } from '@bugtrail/domain/vocabulary';
import { type ConditionOp, conditionOps } from '@bugtrail/domain/vocabulary';
import { Plus, X } from 'lucide-react';
import { Button } from '../ui/button';
import { type Option, SelectField, TextField } from '../ui/field';

/**
 * Conditions on a bug's fields, as rules and SLA policies write them (api.md "Automation rules"):
 * rows of field, comparison and value, all of which must hold.
 */
export const opNames: Record<ConditionOp, string> = {
  is: 'is',
  is_not: 'is not',
  contains: 'contains',
  in: 'is one of',
};
export const builtinFields = ['priority', 'severity', 'status', 'module', 'labels', 'project'];
export const options = (values: readonly string[], names?: Record<string, string>): Option[] =>
  values.map((value) => ({ value, label: names?.[value] ?? value }));

export type ConditionRow = { id: number; field: string; op: ConditionOp; value: string };
/** Rows' own ids, so React keeps each row's inputs with it when one above is removed. */
let nextRow = 0;
export const rowId = () => ++nextRow;

/** A condition's value as typed: a list for "is one of" (comma-separated), a number where the field holds one. */
export function conditionOf(row: ConditionRow, numeric: boolean): AutomationCondition {
  const one = (text: string) =>
    numeric && text.trim() !== '' && Number.isFinite(Number(text)) ? Number(text) : text.trim();
  const value =
    row.op === 'in'
      ? row.value
          .split(',')
          .map(one)
          .filter((v) => v !== '')
      : one(row.value);
  return { field: row.field, op: row.op, value };
}

/** Conditions as rows: `onChange` gets the rows after each edit. */
export function ConditionsEditor({
  conditions,
  fieldOptions,
  onChange,
  legend = 'If all of these hold',
}: {
  conditions: ConditionRow[];
  fieldOptions: Option[];
  onChange: (next: ConditionRow[]) => void;
  legend?: string;
}) {
  return (
    <fieldset className="grid gap-3">
      <legend className="mb-2 text-sm font-semibold text-slate-800">{legend}</legend>
      {conditions.map((row, index) => (
        <div key={row.id} className="grid grid-cols-1 items-end gap-2 sm:grid-cols-[1fr_9rem_1fr_auto]">
          <SelectField
            label={`Field of condition ${index + 1}`}
            value={row.field}
            options={fieldOptions}
            onChange={(e) => {
              onChange(conditions.map((c, i) => (i === index ? { ...c, field: e.target.value } : c)));
            }}
          />
          <SelectField
            label={`Comparison of condition ${index + 1}`}
            value={row.op}
            options={options(conditionOps, opNames)}
            onChange={(e) => {
              onChange(conditions.map((c, i) => (i === index ? { ...c, op: e.target.value as ConditionOp } : c)));
            }}
          />
          <TextField
            label={`Value of condition ${index + 1}`}
            value={row.value}
            placeholder={row.op === 'in' ? 'a, b, c' : ''}
            onChange={(e) => {
              onChange(conditions.map((c, i) => (i === index ? { ...c, value: e.target.value } : c)));
            }}
          />
          <Button
            variant="ghost"
            size="sm"
            aria-label={`Remove condition ${index + 1}`}
            icon={<X className="size-4" aria-hidden="true" />}
            onClick={() => {
              onChange(conditions.filter((_, i) => i !== index));
            }}
          />
        </div>
      ))}
      <Button
        variant="secondary"
        size="sm"
        className="justify-self-start"
        icon={<Plus className="size-4" aria-hidden="true" />}
        onClick={() => {
          onChange([...conditions, { id: rowId(), field: 'severity', op: 'is', value: '' }]);
        }}
      >
        Add condition
      </Button>
    </fieldset>
  );
}
