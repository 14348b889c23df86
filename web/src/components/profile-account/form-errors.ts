import { userMessages } from '@bugtrail/domain/vocabulary';
import { useCallback, useEffect, useState } from 'react';
import { ApiError, messageOf } from '../../lib/api';

/** Each field's message, and `form` for a refusal that names no field (shown as a toast). */
export type FormErrors<F extends string> = Partial<Record<F | 'form', string>>;

/**
 * A refusal of PUT /api/users/{id} put where it belongs: the 400's `details` under
 * their fields (`fieldOf` renames the server's field to the form's), the 403 "Current
 * password is incorrect" under the current password, anything else as a form message.
 */
export function refusalErrors<F extends string>(
  error: unknown,
  fieldOf: (serverField: string) => F | undefined,
  currentPasswordField: F,
  fallback: string,
): FormErrors<F> {
  const message = messageOf(error, fallback);
  if (error instanceof ApiError) {
    if (error.status === 403 && message === userMessages.currentPasswordIncorrect) {
      return { [currentPasswordField]: message } as FormErrors<F>;
    }
    const errors: FormErrors<F> = {};
    for (const detail of error.details) {
      const field = fieldOf(detail.field);
      if (field && !errors[field]) errors[field] = detail.message;
    }
    if (Object.keys(errors).length > 0) return errors;
  }
  return { form: message } as FormErrors<F>;
}

/** The first field (in the form's order) that has a message. */
export function firstInError<F extends string>(errors: FormErrors<F>, order: readonly F[]): F | undefined {
  return order.find((field) => errors[field]);
}

/**
 * Moves focus to an element by id once React has drawn it (a field shown only with its
 * error exists only after the render). Each request focuses again, even the same id.
 */
export function useFocusRequest(): (id: string | undefined) => void {
  const [request, setRequest] = useState<{ id: string } | null>(null);
  useEffect(() => {
    if (request) document.getElementById(request.id)?.focus();
  }, [request]);
  return useCallback((id: string | undefined) => {
    if (id) setRequest({ id });
  }, []);
}
