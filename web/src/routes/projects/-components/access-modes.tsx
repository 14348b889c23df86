import type { ProjectAccess } from '@bugtrail/domain/vocabulary';

/** The two ways a project works, one sentence each (issue 35: the settings page explains them). */
export const accessModes: { value: ProjectAccess; label: string; sentence: string }[] = [
  {
    value: 'reporters',
    label: 'Reporters',
    sentence:
      'Each person works as their role allows: testers see their own reports, developers the bugs assigned to them, and admins close and reopen.',
  },
  {
    value: 'team',
    label: 'Team',
    sentence:
      'Members read and comment on every bug of the project, its developers work on any of them, reporters close or reopen their own, and reports may wait unassigned in triage.',
  },
];

/** A radio group of the two modes, each with its sentence. */
export function AccessChoice({
  value,
  onChange,
  disabled,
}: {
  value: ProjectAccess;
  onChange: (value: ProjectAccess) => void;
  disabled?: boolean;
}) {
  return (
    <fieldset className="space-y-2" disabled={disabled}>
      <legend className="mb-1.5 text-sm font-medium text-slate-700">How the project works</legend>
      {accessModes.map((mode) => (
        <label
          key={mode.value}
          className="flex cursor-pointer gap-3 rounded-lg border border-slate-200 px-3 py-2.5 has-checked:border-brand-400 has-checked:bg-brand-50"
        >
          <input
            type="radio"
            name="access"
            value={mode.value}
            checked={value === mode.value}
            onChange={() => onChange(mode.value)}
            className="mt-0.5 size-4 shrink-0 accent-brand-600"
          />
          <span className="min-w-0 text-sm">
            <span className="font-semibold text-slate-900">{mode.label}</span>
            <span className="block text-slate-600">{mode.sentence}</span>
          </span>
        </label>
      ))}
    </fieldset>
  );
}
