/**
 * Custom fields' words (api.md "Custom fields, workflow states and time", issue 37): types,
 * limits, messages and the answer's shape. No zod here: the web app imports it through the
 * vocabulary door.
 */
export const fieldTypes = ['text', 'number', 'date', 'select', 'multi_select', 'user', 'url'] as const;
export type FieldType = (typeof fieldTypes)[number];

export const fieldLimits = {
  nameMax: 50,
  keyMax: 40,
  perProject: 50,
  options: 100,
  optionMax: 100,
  textMax: 1000,
  urlMax: 2048,
} as const;

/** Field types that take their values from the field's options. */
export const optionTypes: readonly FieldType[] = ['select', 'multi_select'];

export const fieldMessages = {
  nameRequired: 'Field name is required',
  nameTooLong: `Field name must be at most ${fieldLimits.nameMax} characters`,
  typeInvalid: `Field type must be one of: ${fieldTypes.join(', ')}`,
  optionsRequired: 'A select field needs at least one option',
  optionsInvalid: `Options must be a list of at most ${fieldLimits.options} distinct names of at most ${fieldLimits.optionMax} characters`,
  optionsNotAllowed: 'Only select and multi-select fields have options',
  requiredNotBoolean: 'required must be true or false',
  alreadyExists: 'Field already exists',
  tooMany: `A project has at most ${fieldLimits.perProject} fields`,
  notFound: 'Field not found',
  fieldsNotObject: 'fields must be an object of field keys and values',
  unknown: (key: string) => `Unknown field: ${key}`,
  required: (name: string) => `${name} is required`,
  text: (name: string) => `${name} must be text of at most ${fieldLimits.textMax} characters`,
  number: (name: string) => `${name} must be a number`,
  date: (name: string) => `${name} must be a date (YYYY-MM-DD)`,
  select: (name: string, options: readonly string[]) => `${name} must be one of: ${options.join(', ')}`,
  multiSelect: (name: string, options: readonly string[]) => `${name} must be a list of: ${options.join(', ')}`,
  user: (name: string) => `${name} must name a user`,
  url: (name: string) => `${name} must be an http(s) link of at most ${fieldLimits.urlMax} characters`,
} as const;

/** A field in an answer (api.md): its key names its values on bugs, in filters and sorts. */
export type FieldDto = {
  _id: string;
  key: string;
  name: string;
  type: FieldType;
  /** A select's or multi-select's choices, in order; empty for the other types. */
  options: string[];
  required: boolean;
};

/** A value as a bug's answer shows it: option names for selects, a user's id, a day, a number, text. */
export type ShownFieldValue = string | number | string[] | null;
