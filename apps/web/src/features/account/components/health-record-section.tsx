import { useState } from 'react';
import { Button, NativeSelect, Stack, Text, TextInput } from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { administrativeSex, type Account, type AdministrativeSex } from '@dental/contracts';
import { Detail, DetailsList } from '#web/components/details-list';
import { FormActions } from '#web/components/form-actions';
import { Section } from '#web/components/section';
import { errorMessage } from '#web/lib/api-client';
import { useUpdateAccount } from '../api/update-account';

const sexNames: Record<AdministrativeSex, string> = {
  female: 'Female',
  male: 'Male',
  other: 'Other',
  unknown: 'Unknown',
};

const notSet = 'Not set';
const dateFormat = /^\d{4}-\d{2}-\d{2}$/;

// The form holds text ('' for none); the server checks the rest (a birth date after today).
const detailsForm = z.object({
  given_name: z.string().trim().max(100, 'Given name must be at most 100 characters.'),
  family_name: z.string().trim().max(100, 'Family name must be at most 100 characters.'),
  birth_date: z.union([z.literal(''), z.string().regex(dateFormat, 'Enter a date as YYYY-MM-DD.')]),
  sex: z.union([z.literal(''), administrativeSex]),
});
type DetailsForm = z.infer<typeof detailsForm>;

const orNull = <T extends string>(value: T | '') => (value === '' ? null : value);

function DetailsEditor({ account, onClose }: { account: Account; onClose: () => void }) {
  const updateAccount = useUpdateAccount();
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm<DetailsForm>({
    resolver: zodResolver(detailsForm),
    defaultValues: {
      given_name: account.given_name ?? '',
      family_name: account.family_name ?? '',
      birth_date: account.birth_date ?? '',
      sex: account.sex ?? '',
    },
  });

  const onSubmit = handleSubmit((form) => {
    updateAccount.mutate(
      {
        current: account,
        changes: {
          given_name: orNull(form.given_name),
          family_name: orNull(form.family_name),
          birth_date: orNull(form.birth_date),
          sex: orNull(form.sex),
        },
      },
      {
        onSuccess: onClose,
        onError: (error) => {
          // The server names the field it refused when it can; the date is the one it checks.
          setError('birth_date', { type: 'server', message: errorMessage(error) });
        },
      },
    );
  });

  return (
    <form onSubmit={(event) => void onSubmit(event)} noValidate>
      <Stack gap="sm">
        <TextInput
          label="Given name"
          autoComplete="given-name"
          {...register('given_name')}
          error={errors.given_name?.message}
        />
        <TextInput
          label="Family name"
          autoComplete="family-name"
          {...register('family_name')}
          error={errors.family_name?.message}
        />
        <TextInput
          label="Date of birth"
          type="date"
          autoComplete="bday"
          {...register('birth_date')}
          error={errors.birth_date?.message}
        />
        <NativeSelect
          label="Sex"
          data={[
            { value: '', label: notSet },
            ...Object.entries(sexNames).map(([value, label]) => ({ value, label })),
          ]}
          {...register('sex')}
          error={errors.sex?.message}
        />
        <FormActions submitLabel="Save" onCancel={onClose} pending={updateAccount.isPending} />
      </Stack>
    </form>
  );
}

/**
 * Given and family name, date of birth and sex: optional, never needed to use the app. A copy of
 * the member's data carries them, so that another dental practice's system files the record
 * under the right person (docs/decisions/fhir-export.md).
 */
export function HealthRecordSection({ account }: { account: Account }) {
  const [editing, setEditing] = useState(false);
  return (
    <Section title="Health record details">
      <Text size="sm" c="dimmed" mb="sm">
        Optional. They go into the copy of your data you can download, so that another dental
        practice can file your record under the right person.
      </Text>
      {editing ? (
        <DetailsEditor
          account={account}
          onClose={() => {
            setEditing(false);
          }}
        />
      ) : (
        <>
          <DetailsList>
            <Detail label="Given name">{account.given_name ?? notSet}</Detail>
            <Detail label="Family name">{account.family_name ?? notSet}</Detail>
            <Detail label="Date of birth">{account.birth_date ?? notSet}</Detail>
            <Detail label="Sex">{account.sex === null ? notSet : sexNames[account.sex]}</Detail>
          </DetailsList>
          <Button
            variant="default"
            mt="sm"
            onClick={() => {
              setEditing(true);
            }}
          >
            Edit health record details
          </Button>
        </>
      )}
    </Section>
  );
}
