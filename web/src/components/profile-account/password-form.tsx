import { userMessages, validatePassword } from '@bugtrail/domain/vocabulary';
import { type FormEvent, useId, useState } from 'react';
import { accountTexts, useChangePassword } from '../../lib/account-mutations';
import { notify } from '../../lib/notify';
import type { User } from '../../lib/types';
import { PasswordField } from '../password-field';
import { Button } from '../ui/button';
import { type FormErrors, firstInError, refusalErrors, useFocusRequest } from './form-errors';

type Field = 'currentPassword' | 'newPassword' | 'confirmPassword';
const order: readonly Field[] = ['currentPassword', 'newPassword', 'confirmPassword'];
const serverFields: Record<string, Field> = { currentPassword: 'currentPassword', password: 'newPassword' };
const empty: Record<Field, string> = { currentPassword: '', newPassword: '', confirmPassword: '' };

/**
 * A new password, given the current one. The server revokes every token the user had
 * and answers a fresh one for this browser (account-mutations.ts stores it), so other
 * devices are signed out and this one carries on.
 */
export function PasswordForm({ user }: { user: User }) {
  const change = useChangePassword(user._id);
  const [values, setValues] = useState(empty);
  const [errors, setErrors] = useState<FormErrors<Field>>({});
  const focus = useFocusRequest();
  const headingId = useId();
  const ids: Record<Field, string> = { currentPassword: useId(), newPassword: useId(), confirmPassword: useId() };

  const edit = (field: Field, value: string) => {
    setValues((current) => ({ ...current, [field]: value }));
    setErrors((current) => ({ ...current, [field]: undefined }));
  };

  const showErrors = (next: FormErrors<Field>) => {
    setErrors(next);
    const first = firstInError(next, order);
    focus(first && ids[first]);
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const next: FormErrors<Field> = {};
    if (!values.currentPassword) next.currentPassword = userMessages.currentPasswordRequired;
    const issue = validatePassword(values.newPassword);
    if (issue) next.newPassword = issue;
    else if (values.confirmPassword !== values.newPassword) next.confirmPassword = accountTexts.passwordsDiffer;
    showErrors(next);
    if (firstInError(next, order)) return;
    change.mutate(
      { password: values.newPassword, currentPassword: values.currentPassword },
      {
        onSuccess: () => setValues(empty),
        onError: (failure) => {
          const next = refusalErrors(
            failure,
            (field) => serverFields[field],
            'currentPassword',
            accountTexts.passwordFailed,
          );
          if (next.form) notify.error(next.form);
          if (next.currentPassword) setValues((current) => ({ ...current, currentPassword: '' }));
          showErrors(next);
        },
      },
    );
  };

  return (
    <form aria-labelledby={headingId} onSubmit={submit} noValidate className="space-y-4 px-5 py-5">
      <div>
        <h3 id={headingId} className="text-sm font-semibold text-slate-900">
          Change password
        </h3>
        <p className="mt-0.5 text-sm text-slate-500">
          Signs you out everywhere else and revokes your API tokens; this browser stays signed in.
        </p>
      </div>
      {/* For password managers: whose password this is. Not shown, not focusable. */}
      <input type="email" name="username" autoComplete="username" value={user.email} readOnly hidden />
      <div className="grid gap-4 sm:grid-cols-2">
        <div className="sm:col-span-2 sm:max-w-[calc(50%-0.5rem)]">
          <PasswordField
            id={ids.currentPassword}
            label="Current password"
            name="currentPassword"
            autoComplete="current-password"
            value={values.currentPassword}
            error={errors.currentPassword}
            onChange={(event) => edit('currentPassword', event.target.value)}
          />
        </div>
        <PasswordField
          id={ids.newPassword}
          label="New password"
          name="newPassword"
          autoComplete="new-password"
          placeholder="Min 8 characters"
          value={values.newPassword}
          error={errors.newPassword}
          onChange={(event) => edit('newPassword', event.target.value)}
        />
        <PasswordField
          id={ids.confirmPassword}
          label="Confirm new password"
          name="confirmPassword"
          autoComplete="new-password"
          value={values.confirmPassword}
          error={errors.confirmPassword}
          onChange={(event) => edit('confirmPassword', event.target.value)}
        />
      </div>
      <Button type="submit" isLoading={change.isPending}>
        Change password
      </Button>
    </form>
  );
}
