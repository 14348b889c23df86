import type { FieldDto } from '@bugtrail/domain/vocabulary';
import type { FieldFormValues } from '../lib/fields';
import { SelectField, TextField } from './ui/field';

/**
 * A project's custom fields in the report and edit forms (issue 37): one input per field, of its
 * type, each with its own error under it. `people`: whom a user field may name.
 */
export function CustomFieldInputs({
  fields,
  values,
  errors,
  onChange,
  people,
}: {
  fields: readonly FieldDto[];
  values: FieldFormValues;
  errors: Record<string, string | undefined>;
  onChange: (key: string, value: string | string[]) => void;
  people: readonly { _id: string; name: string }[];
}) {
  if (fields.length === 0) return null;
  return (
    <fieldset className="grid grid-cols-1 gap-5 sm:grid-cols-2" aria-label="Custom fields">
      {fields.map((field) => (
        <CustomFieldInput
          key={field._id}
          field={field}
          value={values[field.key]}
          error={errors[field.key]}
          onChange={(value) => onChange(field.key, value)}
          people={people}
        />
      ))}
    </fieldset>
  );
}

function CustomFieldInput({
  field,
  value,
  error,
  onChange,
  people,
}: {
  field: FieldDto;
  value: string | string[] | undefined;
  error: string | undefined;
  onChange: (value: string | string[]) => void;
  people: readonly { _id: string; name: string }[];
}) {
  const label = field.required ? `${field.name} *` : field.name;
  const text = typeof value === 'string' ? value : '';
  const name = `field.${field.key}`;
  switch (field.type) {
    case 'select':
      return (
        <SelectField
          label={label}
          name={name}
          value={text}
          error={error}
          onChange={(event) => onChange(event.target.value)}
          options={[{ value: '', label: '—' }, ...field.options.map((o) => ({ value: o, label: o }))]}
        />
      );
    case 'user':
      return (
        <SelectField
          label={label}
          name={name}
          value={text}
          error={error}
          onChange={(event) => onChange(event.target.value)}
          options={[{ value: '', label: '—' }, ...people.map((p) => ({ value: p._id, label: p.name }))]}
        />
      );
    case 'multi_select': {
      const chosen = Array.isArray(value) ? value : [];
      return (
        <fieldset className="space-y-1.5" data-invalid={!!error || undefined}>
          <legend className="text-sm font-medium text-slate-700">{label}</legend>
          <div className="flex flex-wrap gap-x-4 gap-y-2">
            {field.options.map((option) => (
              <label key={option} className="inline-flex items-center gap-2 text-sm text-slate-700">
                <input
                  type="checkbox"
                  className="size-4 rounded border-slate-300 text-brand-600 focus:ring-brand-500"
                  checked={chosen.includes(option)}
                  onChange={(event) =>
                    onChange(event.target.checked ? [...chosen, option] : chosen.filter((c) => c !== option))
                  }
                />
                {option}
              </label>
            ))}
          </div>
          {error ? (
            <p role="alert" className="text-sm text-rose-600">
              {error}
            </p>
          ) : null}
        </fieldset>
      );
    }
    default:
      return (
        <TextField
          label={label}
          name={name}
          type={
            field.type === 'number' ? 'number' : field.type === 'date' ? 'date' : field.type === 'url' ? 'url' : 'text'
          }
          {...(field.type === 'number' ? { step: 'any', inputMode: 'decimal' as const } : {})}
          placeholder={field.type === 'url' ? 'https://…' : undefined}
          value={text}
          error={error}
          onChange={(event) => onChange(event.target.value)}
        />
      );
  }
}
