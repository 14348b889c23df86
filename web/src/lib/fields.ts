import {
  type FieldDto,
  fieldMessages,
  fieldOfDto,
  fieldValueChanges,
  type ShownFieldValue,
  type StateDto,
} from '@bugtrail/domain/vocabulary';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from './api';
import { queryKeys } from './query-keys';

/**
 * A project's custom fields (api.md "Custom fields", issue 37): read by whoever sees the project,
 * changed by its admins and leads; and a form's values for them, checked by the domain's own
 * rules before they are sent (the server checks the same again).
 */
export const projectFieldsQuery = (idOrKey: string) =>
  queryOptions({
    queryKey: queryKeys.projects.fields(idOrKey),
    queryFn: ({ signal }) =>
      api<{ fields: FieldDto[] }>(`/api/projects/${encodeURIComponent(idOrKey)}/fields`, { signal }),
    staleTime: 30_000,
  });

/** A value as a person reads it: options joined, a user by name (`names`), else as it is. */
export function fieldText(
  field: FieldDto,
  value: ShownFieldValue | undefined,
  names: ReadonlyMap<string, string>,
): string {
  if (value === null || value === undefined) return '';
  if (Array.isArray(value)) return value.join(', ');
  if (field.type === 'user') return names.get(String(value)) ?? String(value);
  return String(value);
}

export type FieldDraft = { name: string; type: FieldDto['type']; options: string[]; required: boolean };
export type FieldChange = Partial<Omit<FieldDraft, 'type' | 'options'>> & {
  options?: (string | { name: string; from: string })[];
};

function useFieldMutation<Input>(send: (input: Input) => Promise<unknown>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: send,
    // Every page of the project refetches its fields, and bugs show renamed options.
    onSettled: () => client.invalidateQueries({ queryKey: queryKeys.projects.all }),
  });
}

const at = (projectId: string) => `/api/projects/${encodeURIComponent(projectId)}/fields`;

export const useAddField = (projectId: string) =>
  useFieldMutation((draft: FieldDraft) =>
    api<FieldDto>(at(projectId), { method: 'POST', body: draft, offline: 'fail' }),
  );

export const useChangeField = (projectId: string) =>
  useFieldMutation(({ fieldId, change }: { fieldId: string; change: FieldChange }) =>
    api<FieldDto>(`${at(projectId)}/${encodeURIComponent(fieldId)}`, {
      method: 'PATCH',
      body: change,
      offline: 'fail',
    }),
  );

export const useRemoveField = (projectId: string) =>
  useFieldMutation((fieldId: string) =>
    api(`${at(projectId)}/${encodeURIComponent(fieldId)}`, { method: 'DELETE', offline: 'fail' }),
  );

/** A form's values by field key: text as typed (numbers and days too), a list for a multi-select. */
export type FieldFormValues = Record<string, string | string[]>;

const isBlank = (v: string | string[] | undefined) =>
  v === undefined || (Array.isArray(v) ? v.length === 0 : v.trim() === '');

/** A bug's answer's values as the form holds them. */
export function fieldsToForm(shown: Record<string, ShownFieldValue> | undefined): FieldFormValues {
  const form: FieldFormValues = {};
  for (const [key, value] of Object.entries(shown ?? {})) {
    if (value === null) continue;
    form[key] = Array.isArray(value) ? [...value] : String(value);
  }
  return form;
}

/** What is sent: each field's value (a number as a number); a blank one is left out of a report, cleared on an edit. */
export function fieldsPayload(
  fields: readonly FieldDto[],
  values: FieldFormValues,
  editing: boolean,
): Record<string, unknown> {
  const sent: Record<string, unknown> = {};
  for (const field of fields) {
    const value = values[field.key];
    if (isBlank(value)) {
      if (editing) sent[field.key] = null;
      continue;
    }
    sent[field.key] = field.type === 'number' ? Number(value) : typeof value === 'string' ? value.trim() : value;
  }
  return sent;
}

/** The domain's checks on the form's values, first message per field key. */
export function fieldErrors(
  fields: readonly FieldDto[],
  values: FieldFormValues,
  editing: boolean,
): Record<string, string> {
  const sent = fieldsPayload(fields, values, editing);
  // User fields are picked from a list of people who exist.
  const knownUserIds = new Set(
    fields
      .filter((f) => f.type === 'user')
      .flatMap((f) => (typeof sent[f.key] === 'string' ? [sent[f.key] as string] : [])),
  );
  const { issues } = fieldValueChanges(fields.map(fieldOfDto), sent, {}, { creating: !editing, knownUserIds });
  const errors: Record<string, string> = {};
  for (const issue of issues) {
    const key = issue.field.replace(/^fields\./, '');
    errors[key] ??= issue.message;
  }
  return errors;
}

export const fieldTypeLabels: Record<FieldDto['type'], string> = {
  text: 'Text',
  number: 'Number',
  date: 'Date',
  select: 'Select',
  multi_select: 'Multi-select',
  user: 'User',
  url: 'Link',
};

export { fieldMessages };

/** A project's workflow states in board order (the defaults until it sets its own). */
export const projectStatesQuery = (idOrKey: string) =>
  queryOptions({
    queryKey: [...queryKeys.projects.fields(idOrKey), 'states'] as const,
    queryFn: ({ signal }) =>
      api<{ states: StateDto[] }>(`/api/projects/${encodeURIComponent(idOrKey)}/states`, { signal }),
    staleTime: 30_000,
  });

export type StateDraft = { _id?: string; name: string; category: StateDto['category']; color: string };

export const useSetStates = (projectId: string) =>
  useFieldMutation((states: StateDraft[]) =>
    api<{ states: StateDto[] }>(`/api/projects/${encodeURIComponent(projectId)}/states`, {
      method: 'PUT',
      body: { states },
      offline: 'fail',
    }),
  );
