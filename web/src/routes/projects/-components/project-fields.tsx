import { projectKeyIssue, projectMessages } from '@bugtrail/domain/vocabulary';
import type { ReactNode } from 'react';
import { cx } from '../../../components/ui/cx';

/** The project forms' fields that can be refused, each with its message. */
export type ProjectFieldErrors = Partial<Record<'key' | 'name' | 'description', string>>;

/** What the forms check before sending: the key's rule and a name (the server checks both again). */
export function projectFieldErrors(key: string, name: string): ProjectFieldErrors {
  const errors: ProjectFieldErrors = {};
  const keyIssue = projectKeyIssue(key);
  if (keyIssue) errors.key = keyIssue;
  if (!name.trim()) errors.name = projectMessages.nameRequired;
  return errors;
}

/** A checkbox with its name in bold and one sentence under it (private, archived). */
export function ProjectToggle({
  label,
  checked,
  onChange,
  className,
  children,
}: {
  label: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
  className?: string;
  children: ReactNode;
}) {
  return (
    <label className={cx('flex items-start gap-3 text-sm', className)}>
      <input
        type="checkbox"
        checked={checked}
        onChange={(event) => onChange(event.target.checked)}
        className="mt-0.5 size-4 accent-brand-600"
      />
      <span>
        <span className="font-semibold text-slate-900">{label}</span>
        <span className="block text-slate-600">{children}</span>
      </span>
    </label>
  );
}
