import { isValidEmail, normaliseEmail, userMessages } from '@bugtrail/domain/vocabulary';
import { type FormEvent, useId, useState } from 'react';
import { accountTexts, useUpdateAccount } from '../../lib/account-mutations';
import { notify } from '../../lib/notify';
import type { User } from '../../lib/types';
import { PasswordField } from '../password-field';
import { Button } from '../ui/button';
import { TextField } from '../ui/field';
import { type FormErrors, firstInError, refusalErrors, useFocusRequest } from './form-errors';

type Field = 'name' | 'email' | 'currentPassword';
const order: readonly Field[] = ['name', 'email', 'currentPassword'];
const serverFields: Record<string, Field> = { name: 'name', email: 'email', currentPassword: 'currentPassword' };

/**
 * Name and email, prefilled from the profile. A new email asks for the current password
 * (the server's rule, api.md "Account safety"): the field shows as soon as the address
 * differs, and the server says whether it is missing or wrong.
 */
export function AccountDetailsForm({ user }: { user: User }) {
  const update = useUpdateAccount(user._id);
  const [name, setName] = useState(user.name);
  const [email, setEmail] = useState(user.email);
  const [currentPassword, setCurrentPassword] = useState('');
  // The profile can change elsewhere (another tab, an admin): a field not being edited follows it.
  const [shown, setShown] = useState({ name: user.name, email: user.email });
  if (shown.name !== user.name || shown.email !== user.email) {
    setShown({ name: user.name, email: user.email });
    if (name === shown.name) setName(user.name);
    if (email === shown.email) setEmail(user.email);
  }
  const [errors, setErrors] = useState<FormErrors<Field>>({});
  const focus = useFocusRequest();
  const headingId = useId();
  const hintId = useId();
  const ids: Record<Field, string> = { name: useId(), email: useId(), currentPassword: useId() };

  // The server's comparison: case and surrounding spaces do not make a new address.
  const isEmailChanged = normaliseEmail(email) !== normaliseEmail(user.email);
  const isChanged = name.trim() !== user.name || isEmailChanged;
  const isPasswordShown = isEmailChanged || !!errors.currentPassword;

  const edit = (field: Field, set: (value: string) => void, value: string) => {
    set(value);
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
    if (!name.trim()) next.name = userMessages.nameRequired;
    if (!isValidEmail(email)) next.email = userMessages.emailInvalid;
    showErrors(next);
    if (firstInError(next, order)) return;
    update.mutate(
      {
        name: name.trim(),
        ...(isEmailChanged ? { email: email.trim(), ...(currentPassword ? { currentPassword } : {}) } : {}),
      },
      {
        onSuccess: (answer) => {
          setName(answer.user.name);
          if (answer.user.email) setEmail(answer.user.email);
          setCurrentPassword('');
        },
        onError: (failure) => {
          const next = refusalErrors(
            failure,
            (field) => serverFields[field],
            'currentPassword',
            accountTexts.saveFailed,
          );
          if (next.form) notify.error(next.form);
          if (next.currentPassword) setCurrentPassword('');
          showErrors(next);
        },
      },
    );
  };

  return (
    <form aria-labelledby={headingId} onSubmit={submit} noValidate className="space-y-4 px-5 py-5">
      <h3 id={headingId} className="text-sm font-semibold text-slate-900">
        Name and email
      </h3>
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField
          id={ids.name}
          label="Name"
          name="name"
          autoComplete="name"
          value={name}
          error={errors.name}
          onChange={(event) => edit('name', setName, event.target.value)}
        />
        <TextField
          id={ids.email}
          label="Email"
          type="email"
          name="email"
          autoComplete="email"
          autoCapitalize="none"
          spellCheck={false}
          value={email}
          error={errors.email}
          onChange={(event) => edit('email', setEmail, event.target.value)}
        />
      </div>
      {isPasswordShown ? (
        <div className="space-y-1.5 sm:max-w-[calc(50%-0.5rem)]">
          <PasswordField
            id={ids.currentPassword}
            label="Current password"
            name="currentPassword"
            autoComplete="current-password"
            value={currentPassword}
            error={errors.currentPassword}
            aria-describedby={errors.currentPassword ? `${ids.currentPassword}-error ${hintId}` : hintId}
            onChange={(event) => edit('currentPassword', setCurrentPassword, event.target.value)}
          />
          <p id={hintId} className="text-xs text-slate-500">
            Needed to change your email, so a borrowed session cannot take the account.
          </p>
        </div>
      ) : null}
      <Button type="submit" isLoading={update.isPending} disabled={!isChanged}>
        Save
      </Button>
    </form>
  );
}
