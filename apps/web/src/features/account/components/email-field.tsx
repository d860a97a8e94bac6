import { TextInput, type TextInputProps } from '@mantine/core';

/** The e-mail field of the account forms, named and typed the same on each of them. */
export function EmailField(props: Omit<TextInputProps, 'label' | 'type' | 'autoComplete'>) {
  return <TextInput label="Email" type="email" autoComplete="email" required {...props} />;
}
