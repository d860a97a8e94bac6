import { TextInput, type TextInputProps } from '@mantine/core';

/** The e-mail field of the sign-in forms, named and typed the same on each of them. On Login it
 *  is the username that passkeys fill in (`username webauthn`). */
export function EmailField({
  autoComplete = 'email',
  ...props
}: Omit<TextInputProps, 'label' | 'type' | 'autoComplete'> & {
  autoComplete?: 'email' | 'username webauthn';
}) {
  return <TextInput label="Email" type="email" autoComplete={autoComplete} required {...props} />;
}
