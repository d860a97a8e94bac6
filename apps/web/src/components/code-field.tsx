import { TextInput, type TextInputProps } from '@mantine/core';

/** A code of the second factor: 6 digits from the authenticator app, or a recovery code (letters
 *  too, so no numeric keyboard). Browsers may offer a code they received (`one-time-code`). */
export function CodeField({
  label = 'Code',
  ...props
}: Omit<TextInputProps, 'type' | 'autoComplete'>) {
  return (
    <TextInput
      label={label}
      autoComplete="one-time-code"
      autoCapitalize="off"
      spellCheck={false}
      required
      {...props}
    />
  );
}
