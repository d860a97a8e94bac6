import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';
import { ApiError } from '#web/lib/api-client';

/** Puts the server's field messages (problem `errors`) under the form's own fields. */
export function applyFieldErrors<Values extends FieldValues>(
  error: unknown,
  fields: readonly Path<Values>[],
  setError: UseFormSetError<Values>,
): void {
  if (!(error instanceof ApiError)) return;
  for (const field of fields) {
    const [message] = error.fieldErrors[field] ?? [];
    if (message !== undefined) setError(field, { type: 'server', message });
  }
}
