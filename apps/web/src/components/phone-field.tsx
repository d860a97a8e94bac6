import { useId } from 'react';
import { Input } from '@mantine/core';
import PhoneInput from 'react-phone-number-input';
// Flags are bundled components of the package; its default fetches images from another site.
import flags from 'react-phone-number-input/flags';
import 'react-phone-number-input/style.css';
import classes from './phone-field.module.css';

export interface PhoneFieldProps {
  value: string | null | undefined;
  onChange: (value: string | undefined) => void;
  onBlur?: () => void;
  error?: string;
  required?: boolean;
  /** The id of a visible label elsewhere (the profile's 'Phone' term); without it the field
   *  shows its own 'Phone' label. */
  labelledBy?: string;
}

/** 'Phone': an international number with a country list, United States by default
 *  (docs/product/accounts.md#sign-up). A number typed or pasted with '+' picks its own country,
 *  whichever flag is selected. */
export function PhoneField({
  value,
  onChange,
  onBlur,
  error,
  required,
  labelledBy,
}: PhoneFieldProps) {
  const id = useId();
  return (
    <Input.Wrapper
      id={id}
      label={labelledBy === undefined ? 'Phone' : undefined}
      error={error}
      required={required}
    >
      <PhoneInput
        id={id}
        className={classes.field}
        defaultCountry="US"
        flags={flags}
        autoComplete="tel"
        value={value ?? undefined}
        onChange={onChange}
        onBlur={onBlur}
        // Passed on to Mantine's Input, which also takes the label and error ids from the wrapper.
        error={error}
        required={required}
        aria-labelledby={labelledBy}
        inputComponent={Input}
      />
    </Input.Wrapper>
  );
}
