import { useQuery } from '@tanstack/react-query';
import { type ChangeEvent, useId } from 'react';
import { projectsQuery } from '../../lib/projects';
import { Button } from '../ui/button';
import { Card } from '../ui/card';
import { controlClass, SelectField } from '../ui/field';
import { isPresetActive, rangePresets, toDay } from './flow-dates';
import { groupLabels } from './flow-groups';
import { DEFAULT_GROUP, type FlowSearch, isRangeReversed } from './flow-search';
import { type FlowGroup, flowGroups } from './flow-types';

const groupOptions = flowGroups.map((group) => ({ value: group, label: groupLabels[group] }));

function DayField({
  label,
  value,
  hint,
  min,
  max,
  onChange,
}: {
  label: string;
  value: string | undefined;
  hint?: string;
  min?: string | undefined;
  max?: string | undefined;
  onChange: (day: string | undefined) => void;
}) {
  const id = useId();
  const change = (event: ChangeEvent<HTMLInputElement>) => {
    // A half-typed date reads as '' with badInput: wait for the whole day.
    if (event.target.value === '' && event.target.validity.badInput) return;
    onChange(event.target.value || undefined);
  };
  return (
    <div className="min-w-0 space-y-1.5">
      <label htmlFor={id} className="block text-sm font-medium text-slate-700">
        {label}
      </label>
      <input
        id={id}
        type="date"
        value={value ?? ''}
        min={min}
        max={max}
        onChange={change}
        aria-describedby={hint ? `${id}-hint` : undefined}
        className={`${controlClass()} h-10 min-w-0`}
      />
      {hint ? (
        <p id={`${id}-hint`} className="text-xs text-slate-500">
          {hint}
        </p>
      ) : null}
    </div>
  );
}

/** The range, the "as of" day and the grouping; every change goes to the URL. */
export function FlowControls({ search, onChange }: { search: FlowSearch; onChange: (next: FlowSearch) => void }) {
  const set = (patch: Partial<FlowSearch>) => onChange({ ...search, ...patch });
  const today = toDay(new Date());
  const presets = rangePresets(search.asOf);
  const projects = useQuery(projectsQuery());
  const projectOptions = [
    { value: '', label: 'All projects' },
    ...(projects.data?.projects ?? []).map((p) => ({ value: p.key, label: `${p.key} · ${p.name}` })),
  ];
  return (
    <Card className="mb-6 p-4 sm:p-5">
      <div className="grid grid-cols-2 gap-3 sm:gap-4 lg:grid-cols-5">
        <DayField label="From" value={search.from} max={search.to} onChange={(from) => set({ from })} />
        <DayField label="To" value={search.to} min={search.from} onChange={(to) => set({ to })} />
        <DayField
          label="As of"
          value={search.asOf}
          max={today}
          hint={search.asOf ? 'The end of that day (UTC)' : 'Empty: now'}
          onChange={(asOf) => set({ asOf })}
        />
        <SelectField
          label="Group by"
          value={search.groupBy ?? DEFAULT_GROUP}
          options={groupOptions}
          onChange={(event) => set({ groupBy: event.target.value as FlowGroup })}
        />
        <SelectField
          label="Project"
          value={search.project ?? ''}
          options={projectOptions}
          onChange={(event) => set({ project: event.target.value || undefined })}
        />
      </div>
      {isRangeReversed(search) ? (
        <p role="alert" className="mt-3 text-sm text-rose-600">
          From must be on or before To.
        </p>
      ) : null}
      <fieldset className="mt-4 flex flex-wrap items-center gap-2">
        <legend className="sr-only">Range presets</legend>
        {presets.map((preset) => (
          <Button
            key={preset.id}
            size="sm"
            variant={isPresetActive(preset, search) ? 'primary' : 'secondary'}
            aria-pressed={isPresetActive(preset, search)}
            onClick={() => set({ from: preset.from, to: preset.to })}
          >
            {preset.label}
          </Button>
        ))}
        {search.asOf ? (
          <Button size="sm" variant="ghost" onClick={() => set({ asOf: undefined })}>
            Back to now
          </Button>
        ) : null}
      </fieldset>
    </Card>
  );
}
