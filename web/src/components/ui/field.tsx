import {
  type InputHTMLAttributes,
  type ReactNode,
  type SelectHTMLAttributes,
  type TextareaHTMLAttributes,
  useId,
} from 'react';
import { cx } from './cx';

export const controlClass = (hasError?: boolean) =>
  cx(
    'block w-full rounded-lg border bg-white px-3 text-sm text-slate-900 shadow-xs placeholder:text-slate-400 transition',
    'focus:outline-none focus:ring-2 disabled:bg-slate-50 disabled:text-slate-500',
    hasError
      ? 'border-rose-400 focus:border-rose-500 focus:ring-rose-100'
      : 'border-slate-300 focus:border-brand-500 focus:ring-brand-100',
  );

type FieldShellProps = {
  label: ReactNode;
  error?: string | undefined;
  hint?: ReactNode;
  id: string;
  children: ReactNode;
  className?: string | undefined;
  trailing?: ReactNode;
};

export function FieldShell({ label, error, hint, id, children, className, trailing }: FieldShellProps) {
  return (
    <div className={cx('space-y-1.5', className)}>
      <div className="flex items-center justify-between gap-2">
        <label htmlFor={id} className="block text-sm font-medium text-slate-700">
          {label}
        </label>
        {trailing}
      </div>
      {children}
      {error ? (
        <p id={`${id}-error`} role="alert" className="text-sm text-rose-600">
          {error}
        </p>
      ) : hint ? (
        <p id={`${id}-hint`} className="text-xs text-slate-500">
          {hint}
        </p>
      ) : null}
    </div>
  );
}

type Common = { label: ReactNode; error?: string | undefined; hint?: ReactNode; wrapperClassName?: string };

export function TextField({
  label,
  error,
  hint,
  wrapperClassName,
  className,
  id,
  ...rest
}: Common & InputHTMLAttributes<HTMLInputElement>) {
  const auto = useId();
  const fieldId = id ?? auto;
  return (
    <FieldShell label={label} error={error} hint={hint} id={fieldId} className={wrapperClassName}>
      <input
        id={fieldId}
        aria-invalid={!!error || undefined}
        aria-describedby={error ? `${fieldId}-error` : hint ? `${fieldId}-hint` : undefined}
        className={cx(controlClass(!!error), 'h-10', className)}
        {...rest}
      />
    </FieldShell>
  );
}

export function TextAreaField({
  label,
  error,
  hint,
  wrapperClassName,
  className,
  id,
  ...rest
}: Common & TextareaHTMLAttributes<HTMLTextAreaElement>) {
  const auto = useId();
  const fieldId = id ?? auto;
  return (
    <FieldShell label={label} error={error} hint={hint} id={fieldId} className={wrapperClassName}>
      <textarea
        id={fieldId}
        aria-invalid={!!error || undefined}
        aria-describedby={error ? `${fieldId}-error` : undefined}
        className={cx(controlClass(!!error), 'py-2 leading-relaxed', className)}
        {...rest}
      />
    </FieldShell>
  );
}

export type Option = { value: string; label: string };

export function SelectField({
  label,
  error,
  hint,
  wrapperClassName,
  className,
  id,
  options,
  ...rest
}: Common & SelectHTMLAttributes<HTMLSelectElement> & { options: readonly Option[] }) {
  const auto = useId();
  const fieldId = id ?? auto;
  return (
    <FieldShell label={label} error={error} hint={hint} id={fieldId} className={wrapperClassName}>
      <select
        id={fieldId}
        aria-invalid={!!error || undefined}
        className={cx(controlClass(!!error), 'h-10 pr-8', className)}
        {...rest}
      >
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </FieldShell>
  );
}
