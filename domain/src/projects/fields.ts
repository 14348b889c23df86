import { z } from 'zod';
import { ConflictError, NotFoundError, ValidationError } from '../core/errors.js';
import type { Command } from '../core/event.js';
import { type FieldDef, type FieldOption, liveFields, liveOptions, sameName } from './field-values.js';
import { type FieldType, fieldLimits, fieldMessages, fieldTypes, optionTypes } from './field-vocabulary.js';

export * from './field-values.js';
export * from './field-vocabulary.js';

/**
 * Custom fields (api.md "Custom fields, workflow states and time", issue 37). A project's
 * fields are facts of its stream (`ProjectFieldAdded`, `…Changed`, `…Removed`); a bug's values
 * are facts of the bug's (`BugFieldsChanged`, bug-fields.ts), stored by field id and, for
 * selects, by option id. So a field or an option renamed renames every value at once, and one
 * removed stays named in the history that mentions it: the project keeps it, flagged.
 */

const id = z.string().min(1).max(100);
const optionSchema = z.object({ id, name: z.string().min(1).max(fieldLimits.optionMax) });
export const fieldEventSchemas = {
  ProjectFieldAdded: {
    version: 1,
    data: z.object({
      projectId: id,
      fieldId: id,
      key: z.string().min(1).max(fieldLimits.keyMax),
      name: z.string().min(1).max(fieldLimits.nameMax),
      type: z.enum(fieldTypes),
      options: z.array(optionSchema).max(fieldLimits.options),
      required: z.boolean(),
    }),
  },
  /** Only what changed; `options` is the whole list of live options after the change (renames keep ids). */
  ProjectFieldChanged: {
    version: 1,
    data: z.object({
      projectId: id,
      fieldId: id,
      name: z.string().min(1).max(fieldLimits.nameMax).optional(),
      required: z.boolean().optional(),
      options: z.array(optionSchema).max(fieldLimits.options).optional(),
    }),
  },
  ProjectFieldRemoved: { version: 1, data: z.object({ projectId: id, fieldId: id }) },
} as const;

type FieldEvent =
  | { type: 'ProjectFieldAdded'; data: z.infer<(typeof fieldEventSchemas)['ProjectFieldAdded']['data']> }
  | { type: 'ProjectFieldChanged'; data: z.infer<(typeof fieldEventSchemas)['ProjectFieldChanged']['data']> }
  | { type: 'ProjectFieldRemoved'; data: z.infer<(typeof fieldEventSchemas)['ProjectFieldRemoved']['data']> };

/** The project's fields after one of its field events. */
export function evolveFields(fields: readonly FieldDef[], event: FieldEvent): readonly FieldDef[] {
  switch (event.type) {
    case 'ProjectFieldAdded': {
      const d = event.data;
      if (fields.some((f) => f.id === d.fieldId)) return fields;
      const options = d.options.map((o) => ({ ...o, removed: false }));
      return [
        ...fields,
        { id: d.fieldId, key: d.key, name: d.name, type: d.type, options, required: d.required, removed: false },
      ];
    }
    case 'ProjectFieldChanged': {
      const d = event.data;
      return fields.map((f) => {
        if (f.id !== d.fieldId) return f;
        let options = f.options;
        if (d.options) {
          const live = new Map(d.options.map((o) => [o.id, o.name]));
          const kept = f.options.map((o) => ({ ...o, name: live.get(o.id) ?? o.name, removed: !live.has(o.id) }));
          const added = d.options
            .filter((o) => !f.options.some((x) => x.id === o.id))
            .map((o) => ({ ...o, removed: false }));
          // Live ones in the event's order, then the removed ones (history still names them).
          const byId = new Map([...kept, ...added].map((o) => [o.id, o]));
          options = [...d.options.map((o) => byId.get(o.id)!), ...kept.filter((o) => o.removed)];
        }
        return { ...f, name: d.name ?? f.name, required: d.required ?? f.required, options };
      });
    }
    case 'ProjectFieldRemoved':
      return fields.map((f) => (f.id === event.data.fieldId ? { ...f, removed: true } : f));
  }
}

/** `Customer tier` → `customer_tier`; unique among every key the project has given (`_2`, `_3`, … after). */
export function fieldKeyOf(name: string, taken: readonly string[]): string {
  const base =
    name
      .normalize('NFKD')
      .replace(/\p{M}/gu, '')
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '_')
      .replace(/^_+|_+$/g, '')
      .replace(/^(?=\d)/, 'f_')
      .slice(0, fieldLimits.keyMax - 4) || 'field';
  const used = new Set(taken);
  if (!used.has(base)) return base;
  for (let n = 2; ; n++) if (!used.has(`${base}_${n}`)) return `${base}_${n}`;
}

// ── a project's fields: add, change, remove ─────────────────────────────────────

/** `optionIds`: ids the server made, one per option sent (used in order for new ones). */
export type AddProjectField = Command<
  'AddProjectField',
  {
    fieldId: string;
    name: string;
    type: FieldType;
    options: readonly string[];
    required: boolean;
    optionIds: readonly string[];
  }
>;
/** `options`: the live options after the change, in order; `{ name, from }` renames `from`. */
export type ChangeProjectField = Command<
  'ChangeProjectField',
  {
    fieldId: string;
    name?: string | undefined;
    required?: boolean | undefined;
    options?: readonly (string | Readonly<{ name: string; from: string }>)[] | undefined;
    optionIds: readonly string[];
  }
>;
export type RemoveProjectField = Command<'RemoveProjectField', { fieldId: string }>;
export type FieldCommand = AddProjectField | ChangeProjectField | RemoveProjectField;

function assertOptions(type: FieldType, names: readonly string[]): void {
  if (!optionTypes.includes(type)) {
    if (names.length > 0) throw ValidationError.field('options', fieldMessages.optionsNotAllowed);
    return;
  }
  if (names.length === 0) throw ValidationError.field('options', fieldMessages.optionsRequired);
  const clean = names.map((n) => n.trim());
  const distinct = new Set(clean.map((n) => n.toLowerCase()));
  if (
    clean.length > fieldLimits.options ||
    distinct.size !== clean.length ||
    clean.some((n) => n.length === 0 || n.length > fieldLimits.optionMax)
  ) {
    throw ValidationError.field('options', fieldMessages.optionsInvalid);
  }
}

function assertName(name: string): string {
  const clean = name.trim();
  if (!clean) throw ValidationError.field('name', fieldMessages.nameRequired);
  if (clean.length > fieldLimits.nameMax) throw ValidationError.field('name', fieldMessages.nameTooLong);
  return clean;
}

function assertNameFree(fields: readonly FieldDef[], name: string, except?: string): void {
  if (liveFields(fields).some((f) => f.id !== except && sameName(f.name, name))) {
    throw new ConflictError(fieldMessages.alreadyExists);
  }
}

/** The field events a command on a project's fields decides (the caller checked who asks). */
export function decideFields(projectId: string, fields: readonly FieldDef[], command: FieldCommand): FieldEvent[] {
  const d = command.data;
  const ids = 'optionIds' in d ? d.optionIds : [];
  /** The id of a new option sent at `index` (the request made one per option sent). */
  const newOptionId = (index: number) => {
    const next = ids[index];
    if (!next) throw new Error('the command carries too few option ids');
    return next;
  };
  if (command.type === 'AddProjectField') {
    const c = command.data;
    if (fields.some((f) => f.id === c.fieldId)) return [];
    const name = assertName(c.name);
    assertOptions(c.type, c.options);
    assertNameFree(fields, name);
    if (liveFields(fields).length >= fieldLimits.perProject) throw new ConflictError(fieldMessages.tooMany);
    const key = fieldKeyOf(
      name,
      fields.map((f) => f.key),
    );
    const options = c.options.map((n, i) => ({ id: newOptionId(i), name: n.trim() }));
    return [
      {
        type: 'ProjectFieldAdded',
        data: { projectId, fieldId: c.fieldId, key, name, type: c.type, options, required: c.required },
      },
    ];
  }
  const field = liveFields(fields).find((f) => f.id === d.fieldId);
  if (!field) throw new NotFoundError(fieldMessages.notFound);
  if (command.type === 'RemoveProjectField')
    return [{ type: 'ProjectFieldRemoved', data: { projectId, fieldId: field.id } }];
  const c = command.data;
  const change: { name?: string; required?: boolean; options?: { id: string; name: string }[] } = {};
  if (c.name !== undefined) {
    const name = assertName(c.name);
    assertNameFree(fields, name, field.id);
    if (name !== field.name) change.name = name;
  }
  if (c.required !== undefined && c.required !== field.required) change.required = c.required;
  if (c.options !== undefined) {
    const options = nextOptions(field, c.options, newOptionId);
    assertOptions(
      field.type,
      options.map((o) => o.name),
    );
    const live = liveOptions(field);
    const same =
      options.length === live.length && options.every((o, i) => o.id === live[i]!.id && o.name === live[i]!.name);
    if (!same) change.options = options;
  }
  if (Object.keys(change).length === 0) return [];
  return [{ type: 'ProjectFieldChanged', data: { projectId, fieldId: field.id, ...change } }];
}

/**
 * The options after a change. A name the field has keeps its option; `{ name, from }` renames
 * `from`; a new name at the place of an old one that the list no longer has renames it (a
 * client that edits the list in place); any other new name is a new option.
 */
function nextOptions(
  field: FieldDef,
  sent: readonly (string | Readonly<{ name: string; from: string }>)[],
  newOptionId: (index: number) => string,
): { id: string; name: string }[] {
  const live = liveOptions(field);
  const names = sent.map((o) => (typeof o === 'string' ? o : o.name).trim());
  const byName = (name: string) => live.find((o) => sameName(o.name, name));
  const used = new Set<string>();
  const result: { id: string; name: string }[] = [];
  sent.forEach((entry, index) => {
    const name = names[index]!;
    let option: FieldOption | undefined;
    if (typeof entry !== 'string') option = byName(entry.from);
    else {
      option = byName(name);
      const inPlace = live[index];
      if (!option && inPlace && !names.some((n) => sameName(n, inPlace.name))) option = inPlace;
    }
    if (option && !used.has(option.id)) {
      used.add(option.id);
      result.push({ id: option.id, name });
    } else result.push({ id: newOptionId(index), name });
  });
  return result;
}

// ── bodies and answers ──────────────────────────────────────────────────────────

const optionNames = z.array(z.string({ error: fieldMessages.optionsInvalid }).max(fieldLimits.optionMax * 2), {
  error: fieldMessages.optionsInvalid,
});

/** `POST /api/projects/{id}/fields`. */
export const createFieldBody = z.object({
  name: z.string({ error: fieldMessages.nameRequired }).max(fieldLimits.nameMax * 4, fieldMessages.nameTooLong),
  type: z.enum(fieldTypes, { error: fieldMessages.typeInvalid }),
  options: optionNames.max(fieldLimits.options * 2, fieldMessages.optionsInvalid).nullish(),
  required: z.boolean({ error: fieldMessages.requiredNotBoolean }).optional(),
});

/** `PATCH /api/projects/{id}/fields/{fieldId}`: only what is sent changes; `{ name, from }` renames an option. */
export const updateFieldBody = z.object({
  name: z
    .string({ error: fieldMessages.nameRequired })
    .max(fieldLimits.nameMax * 4, fieldMessages.nameTooLong)
    .optional(),
  options: z
    .array(
      z.union([
        z.string().max(fieldLimits.optionMax * 2),
        z.object({ name: z.string().max(fieldLimits.optionMax * 2), from: z.string().max(fieldLimits.optionMax * 2) }),
      ]),
      { error: fieldMessages.optionsInvalid },
    )
    .max(fieldLimits.options * 2, fieldMessages.optionsInvalid)
    .optional(),
  required: z.boolean({ error: fieldMessages.requiredNotBoolean }).optional(),
});

/** `fields` on a report or an edit: values by field key. */
export const fieldValuesBody = z.record(z.string().max(100), z.unknown(), { error: fieldMessages.fieldsNotObject });

export const fieldDtoSchema = z.object({
  _id: z.string(),
  key: z.string().describe('Names its values on bugs (`fields.<key>`), in filters (`field.<key>=`) and sorts'),
  name: z.string(),
  type: z.enum(fieldTypes),
  options: z.array(z.string()).describe('A select’s or multi-select’s choices, in order'),
  required: z.boolean(),
});
