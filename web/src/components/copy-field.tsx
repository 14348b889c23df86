import { Check, Copy } from 'lucide-react';
import { type ReactNode, useId, useRef, useState } from 'react';
import { notify } from '../lib/notify';
import { Button } from './ui/button';
import { cx } from './ui/cx';
import { controlClass } from './ui/field';

/**
 * A secret to pass on (a reset link, an invite code) in a read-only box with a Copy
 * button. The clipboard API exists only on secure origins (HTTPS, localhost): elsewhere,
 * or if the browser refuses, the text is selected for the user to copy by hand.
 */
export function CopyField({
  label,
  value,
  copiedMessage,
  variant = 'link',
  hasFocus,
}: {
  label: string;
  value: string;
  copiedMessage: string;
  /** `link`: wraps over lines, all of it in view; `code`: short, large and spaced. */
  variant?: 'link' | 'code';
  /** Takes the dialog's first focus, text selected: Ctrl+C copies it at once. */
  hasFocus?: boolean;
}) {
  const id = useId();
  const box = useRef<HTMLInputElement & HTMLTextAreaElement>(null);
  const [isCopied, setCopied] = useState(false);
  const [hint, setHint] = useState('');

  const copy = async () => {
    try {
      if (!navigator.clipboard?.writeText) throw new Error('no clipboard');
      await navigator.clipboard.writeText(value);
      setHint('');
      setCopied(true);
      setTimeout(() => setCopied(false), 2000);
      notify.success(copiedMessage);
    } catch {
      box.current?.focus();
      box.current?.select();
      setHint('Selected: press Ctrl+C (⌘C on a Mac) to copy.');
    }
  };
  const shared = {
    ref: box,
    id,
    readOnly: true,
    value,
    'data-autofocus': hasFocus || undefined,
    'aria-describedby': hint ? `${id}-hint` : undefined,
    onFocus: (event: { currentTarget: HTMLInputElement | HTMLTextAreaElement }) => event.currentTarget.select(),
  };

  return (
    <div className="space-y-1.5">
      <label htmlFor={id} className="block text-sm font-medium text-slate-700">
        {label}
      </label>
      <div className={cx('flex gap-2', variant === 'link' && 'flex-col sm:flex-row sm:items-start')}>
        {variant === 'link' ? (
          <textarea
            {...shared}
            rows={3}
            spellCheck={false}
            className={cx(controlClass(), 'min-w-0 flex-1 resize-none bg-slate-50 py-2 font-mono text-xs break-all')}
          />
        ) : (
          <input
            {...shared}
            className={cx(
              controlClass(),
              'h-14 min-w-0 flex-1 bg-slate-50 text-center font-mono text-2xl font-semibold tracking-[0.3em] text-slate-900',
            )}
          />
        )}
        <Button
          variant="secondary"
          onClick={copy}
          className={variant === 'code' ? 'h-14' : 'self-end sm:self-start'}
          icon={isCopied ? <Check className="size-4" /> : <Copy className="size-4" />}
        >
          {isCopied ? 'Copied' : 'Copy'}
        </Button>
      </div>
      {hint ? (
        <p id={`${id}-hint`} role="status" className="text-xs text-slate-500">
          {hint}
        </p>
      ) : null}
    </div>
  );
}

/** A secret the server answers once (an API token, a webhook's signing secret): what it is, the secret to copy, Done. */
export function SecretShownOnce({
  children,
  label,
  value,
  copiedMessage,
  onDone,
}: {
  children: ReactNode;
  label: string;
  value: string;
  copiedMessage: string;
  onDone: () => void;
}) {
  return (
    <div
      role="status"
      className="space-y-3 rounded-xl border border-lime-200 bg-lime-50 px-5 py-4 text-sm text-lime-900"
    >
      <p>{children}</p>
      <CopyField label={label} value={value} copiedMessage={copiedMessage} />
      <div className="flex justify-end">
        <Button variant="secondary" onClick={onDone}>
          Done
        </Button>
      </div>
    </div>
  );
}
