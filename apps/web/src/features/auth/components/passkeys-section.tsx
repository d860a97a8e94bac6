import { useState } from 'react';
import { Alert, Button, Group, List, Stack, Text, TextInput } from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import dayjs from 'dayjs';
import { browserSupportsWebAuthn } from '@simplewebauthn/browser';
import { passkeyName, type Passkey } from '@dental/contracts';
import { ConfirmModal } from '#web/components/confirm-modal';
import { needsPassword, PasswordCheckDialog } from '#web/components/password-check-dialog';
import { Section } from '#web/components/section';
import { errorMessage } from '#web/lib/api-client';
import { dateFormat } from '#web/lib/dates';
import { useAddPasskey, usePasskeys, useRemovePasskey } from '../api/passkeys';

const addForm = z.object({ name: passkeyName });

/** Names the passkey and creates it; a long-ago sign-in asks for the password first. */
function AddPasskey() {
  const addPasskey = useAddPasskey();
  const [checking, setChecking] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    reset,
    formState: { errors },
  } = useForm({ resolver: zodResolver(addForm), defaultValues: { name: '' } });

  const add = (name: string, password?: string) => {
    addPasskey.mutate(
      { name, password },
      {
        onSuccess: () => {
          setChecking(null);
          reset();
        },
        onError: (error) => {
          if (needsPassword(error)) setChecking(name);
        },
      },
    );
  };
  const onSubmit = handleSubmit(({ name }) => {
    add(name);
  });

  if (!browserSupportsWebAuthn()) {
    return <Text c="dimmed">This browser cannot create passkeys.</Text>;
  }
  return (
    <form onSubmit={(event) => void onSubmit(event)} noValidate>
      <Group align="flex-end" gap="sm">
        <TextInput
          label="Passkey name"
          description="For example the device that keeps it."
          required
          maw="100%"
          w={280}
          {...register('name')}
          error={errors.name?.message}
        />
        <Button type="submit" loading={addPasskey.isPending && checking === null}>
          Add a passkey
        </Button>
      </Group>
      {addPasskey.isError && !needsPassword(addPasskey.error) && checking === null && (
        <Alert color="red" variant="outline" mt="sm">
          {errorMessage(addPasskey.error)}
        </Alert>
      )}
      <PasswordCheckDialog
        opened={checking !== null}
        onClose={() => {
          setChecking(null);
          addPasskey.reset();
        }}
        confirmLabel="Add a passkey"
        pending={addPasskey.isPending}
        error={needsPassword(addPasskey.error) ? null : addPasskey.error}
        onSubmit={(password) => {
          if (checking !== null) add(checking, password);
        }}
      />
    </form>
  );
}

/** One passkey: its name, dates and the Remove button, confirmed (and password-checked when the
 *  sign-in is long ago) first. */
function PasskeyItem({ passkey }: { passkey: Passkey }) {
  const removePasskey = useRemovePasskey();
  const [step, setStep] = useState<'closed' | 'confirm' | 'password'>('closed');
  const close = () => {
    setStep('closed');
  };
  const used =
    passkey.last_used_at === null
      ? 'not used yet'
      : `last used ${dayjs(passkey.last_used_at).format(dateFormat)}`;
  return (
    <List.Item>
      <Group justify="space-between" wrap="wrap" gap="xs">
        <Stack gap={0} miw={0}>
          <Text fw={500} style={{ overflowWrap: 'anywhere' }}>
            {passkey.name}
          </Text>
          <Text size="sm" c="dimmed">
            Added {dayjs(passkey.created_at).format(dateFormat)}, {used}
          </Text>
        </Stack>
        <Button
          variant="outline"
          color="red"
          size="xs"
          aria-label={`Remove passkey ${passkey.name}`}
          onClick={() => {
            removePasskey.reset();
            setStep('confirm');
          }}
        >
          Remove
        </Button>
      </Group>
      <ConfirmModal
        opened={step === 'confirm'}
        onClose={close}
        title="Remove passkey"
        confirmLabel="Remove"
        confirmColor="red"
        onConfirm={() =>
          removePasskey.mutateAsync({ id: passkey.id }).catch((error: unknown) => {
            if (needsPassword(error)) {
              removePasskey.reset();
              setStep('password');
            }
            throw error;
          })
        }
      >
        <Text style={{ overflowWrap: 'anywhere' }}>
          Remove the passkey “{passkey.name}”? You will no longer be able to sign in with it.
        </Text>
        {removePasskey.isError && (
          <Alert color="red" variant="outline" mt="sm">
            {errorMessage(removePasskey.error)}
          </Alert>
        )}
      </ConfirmModal>
      <PasswordCheckDialog
        opened={step === 'password'}
        onClose={close}
        confirmLabel="Remove"
        confirmColor="red"
        pending={removePasskey.isPending}
        error={removePasskey.error}
        onSubmit={(password) => {
          removePasskey.mutate({ id: passkey.id, password });
        }}
      />
    </List.Item>
  );
}

/** The Profile's passkeys (docs/product/accounts.md#passkeys): listed, named when added,
 *  removable. */
function Passkeys() {
  const passkeys = usePasskeys();
  return (
    <Stack gap="sm">
      <Text>
        Sign in with your fingerprint, face or screen lock instead of your password. When you sign
        in with your password, a passkey is also the second step.
      </Text>
      {passkeys.isError && (
        <Alert color="red" variant="outline">
          {errorMessage(passkeys.error)}
        </Alert>
      )}
      {passkeys.data?.length === 0 && <Text c="dimmed">You have no passkeys yet.</Text>}
      {passkeys.data !== undefined && passkeys.data.length > 0 && (
        <List listStyleType="none" spacing="sm" aria-label="Your passkeys">
          {passkeys.data.map((passkey) => (
            <PasskeyItem key={passkey.id} passkey={passkey} />
          ))}
        </List>
      )}
      <AddPasskey />
    </Stack>
  );
}

export function PasskeysSection() {
  return (
    <Section title="Passkeys">
      <Passkeys />
    </Section>
  );
}
