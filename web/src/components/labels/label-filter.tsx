import { useQuery } from '@tanstack/react-query';
import { labelsQuery } from '../../lib/labels';
import { MultiFilter } from '../bug-list/list-filters';

/** The lists' and the board's label filter: labels by id, several at once (a bug must carry them all). */
export function LabelFilter({
  value,
  onChange,
}: {
  value: string | undefined;
  onChange: (value: string | undefined) => void;
}) {
  const labels = useQuery(labelsQuery());
  const all = labels.data?.labels ?? [];
  if (all.length === 0 && !value) return null;
  // A label named in the URL by its name shows as the label it is.
  const ids = value
    ?.split(',')
    .map((v) => all.find((l) => l._id === v || l.name.toLowerCase() === v.toLowerCase())?._id ?? v)
    .join(',');
  return (
    <MultiFilter
      label="Label"
      value={ids}
      onChange={onChange}
      options={all.map((label): [string, string] => [label._id, label.name])}
    />
  );
}
