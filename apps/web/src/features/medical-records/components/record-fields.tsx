import { Stack, Textarea, TextInput } from '@mantine/core';
import { z } from 'zod';
import { noteMaxLength, titleMaxLength, updateMedicalRecordRequest } from '@dental/contracts';

export interface RecordFieldValues {
  title: string;
  record_date: string;
  note: string;
}

export interface RecordFieldsProps {
  value: RecordFieldValues;
  onChange: (value: RecordFieldValues) => void;
  errors?: Readonly<Record<string, string[]>>;
}

/** The fields' problems by the API's own rules, so the form refuses before anything is sent. */
export function recordFieldErrors(value: RecordFieldValues): Record<string, string[]> {
  const result = updateMedicalRecordRequest.safeParse(value);
  return result.success ? {} : z.flattenError(result.error).fieldErrors;
}

/** Title, record date and note of a record, shared by the add and the detail screens. */
export function RecordFields({ value, onChange, errors = {} }: RecordFieldsProps) {
  return (
    <Stack gap="md">
      <TextInput
        label="Title"
        required
        maxLength={titleMaxLength}
        value={value.title}
        error={errors.title?.join(' ')}
        onChange={(event) => {
          onChange({ ...value, title: event.currentTarget.value });
        }}
      />
      <TextInput
        type="date"
        label="Record date"
        required
        value={value.record_date}
        error={errors.record_date?.join(' ')}
        onChange={(event) => {
          onChange({ ...value, record_date: event.currentTarget.value });
        }}
      />
      <Textarea
        label="Note"
        autosize
        minRows={3}
        maxLength={noteMaxLength}
        value={value.note}
        error={errors.note?.join(' ')}
        onChange={(event) => {
          onChange({ ...value, note: event.currentTarget.value });
        }}
      />
    </Stack>
  );
}
