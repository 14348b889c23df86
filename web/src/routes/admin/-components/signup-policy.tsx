/** The team page's switch for who may sign up by themselves, above the invite codes. */
import { useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { cx } from '../../../components/ui/cx';
import { messageOf } from '../../../lib/api';
import { notify } from '../../../lib/notify';
import { type SignupMode, signupPolicyQuery, useSetSignupPolicy } from './team-api';

const modeChoices: { mode: SignupMode; label: string; hint: string }[] = [
  { mode: 'open', label: 'Anyone', hint: 'Testers and developers sign up by themselves' },
  {
    mode: 'invitation',
    label: 'By invitation only',
    hint: 'Testers and developers need a code or link an admin made',
  },
];

/** Who may sign up: anyone, or only people an admin invited. Saved as soon as it is chosen. */
export function SignupPolicy() {
  const legend = useId();
  const { data: mode } = useQuery(signupPolicyQuery());
  const setPolicy = useSetSignupPolicy();
  // The choice shows at once; a refusal puts the saved one back.
  const shown = setPolicy.isPending ? setPolicy.variables : mode;
  const choose = (next: SignupMode) =>
    setPolicy.mutate(next, {
      onSuccess: () => notify.success(next === 'open' ? 'Anyone can sign up now' : 'Sign-up is now by invitation only'),
      onError: (failure) => notify.error(messageOf(failure, 'Failed to change who may sign up')),
    });
  return (
    <fieldset aria-labelledby={legend} className="px-5 pt-4 pb-2">
      <legend id={legend} className="text-sm font-medium text-slate-700">
        Who may sign up
      </legend>
      <div className="mt-2 grid gap-2 sm:grid-cols-2">
        {modeChoices.map((choice) => (
          <label
            key={choice.mode}
            className={cx(
              'flex cursor-pointer items-start gap-2 rounded-lg border px-3 py-2 text-sm has-disabled:cursor-default',
              shown === choice.mode ? 'border-brand-500 bg-brand-50/60 ring-1 ring-brand-500' : 'border-slate-200',
            )}
          >
            <input
              type="radio"
              name="signup-policy"
              className="mt-0.5 size-4 accent-brand-600"
              checked={shown === choice.mode}
              disabled={mode === undefined || setPolicy.isPending}
              onChange={() => choose(choice.mode)}
            />
            <span className="min-w-0">
              <span className="block font-medium text-slate-800">{choice.label}</span>
              <span className="block text-xs text-slate-600">{choice.hint}</span>
            </span>
          </label>
        ))}
      </div>
      <p className="mt-2 text-xs text-slate-600">An admin always signs up with an admin invite code.</p>
    </fieldset>
  );
}
