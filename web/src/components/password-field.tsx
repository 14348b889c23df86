import { Eye, EyeOff } from 'lucide-react';
import { type InputHTMLAttributes, type ReactNode, useId, useState } from 'react';
import { controlClass, FieldShell } from './ui/field';

export function PasswordField({
  label,
  error,
  hint,
  wrapperClassName,
  id,
  ...rest
}: {
  label: string;
  error?: string | undefined;
  hint?: ReactNode;
  wrapperClassName?: string;
} & InputHTMLAttributes<HTMLInputElement>) {
  const auto = useId();
  const fieldId = id ?? auto;
  const [isVisible, setVisible] = useState(false);
  return (
    <FieldShell label={label} error={error} hint={hint} id={fieldId} className={wrapperClassName}>
      <div className="relative">
        <input
          id={fieldId}
          type={isVisible ? 'text' : 'password'}
          aria-invalid={!!error || undefined}
          aria-describedby={error ? `${fieldId}-error` : hint ? `${fieldId}-hint` : undefined}
          className={`${controlClass(!!error)} h-10 pr-10`}
          {...rest}
        />
        <button
          type="button"
          onClick={() => setVisible((visible) => !visible)}
          aria-label={isVisible ? 'Hide password' : 'Show password'}
          aria-pressed={isVisible}
          className="absolute inset-y-0 right-0 flex w-10 items-center justify-center rounded-r-lg text-slate-400 hover:text-slate-700"
        >
          {isVisible ? <EyeOff className="size-4" /> : <Eye className="size-4" />}
        </button>
      </div>
    </FieldShell>
  );
}
