import { useQuery } from '@tanstack/react-query';
import { projectFieldsQuery } from '../../lib/fields';
import { FilterSelect } from './list-filters';
import { fieldPairs, fieldParam } from './list-search';

/**
 * A project's custom fields in a list's toolbar (issue 37): a select for each field with
 * options (a bug matches when it holds the value; a multi-select, among its values). The
 * filters travel in the URL's `field` (`key:value;…`) and to the API as `field.<key>=value`.
 */
export function FieldFilters({
  projectId,
  value,
  onChange,
}: {
  projectId: string;
  value: string | undefined;
  onChange: (value: string | undefined) => void;
}) {
  const { data } = useQuery(projectFieldsQuery(projectId));
  const pairs = fieldPairs(value);
  const choosable = (data?.fields ?? []).filter((f) => f.type === 'select' || f.type === 'multi_select');
  return choosable.map((field) => {
    const current = pairs.find(([key]) => key === field.key)?.[1] ?? '';
    return (
      <FilterSelect
        key={field._id}
        label={field.name}
        value={current}
        onChange={(chosen) =>
          onChange(
            fieldParam([
              ...pairs.filter(([key]) => key !== field.key),
              ...(chosen ? ([[field.key, chosen]] as [string, string][]) : []),
            ]),
          )
        }
        options={[['', `Any ${field.name}`], ...field.options.map((o): [string, string] => [o, o])]}
      />
    );
  });
}

/** The orders a project's custom fields add to a list's Sort select. */
export function useFieldSorts(projectId: string | undefined): [string, string][] {
  const { data } = useQuery({ ...projectFieldsQuery(projectId ?? ''), enabled: !!projectId });
  if (!projectId) return [];
  return (data?.fields ?? [])
    .filter((f) => f.type !== 'multi_select' && f.type !== 'user')
    .flatMap((f): [string, string][] => [
      [
        `field.${f.key}`,
        `${f.name}, ${f.type === 'number' ? 'low to high' : f.type === 'date' ? 'earliest first' : 'A to Z'}`,
      ],
      [
        `-field.${f.key}`,
        `${f.name}, ${f.type === 'number' ? 'high to low' : f.type === 'date' ? 'latest first' : 'Z to A'}`,
      ],
    ]);
}
