import { useState, type ReactNode } from 'react';
import { Alert, Badge, Button, Group, List, Stack, Text, TextInput } from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import dayjs from 'dayjs';
import { email, type Delegate, type ReceivedDelegation } from '@dental/contracts';
import { ConfirmModal } from '#web/components/confirm-modal';
import { Section } from '#web/components/section';
import { ApiError, errorMessage } from '#web/lib/api-client';
import { dateFormat } from '#web/lib/dates';
import { useViewedRecord } from '#web/lib/viewed-record';
import {
  useAcceptDelegation,
  useDelegates,
  useInviteDelegate,
  useReceivedDelegations,
  useRemoveDelegation,
  useSwitchRecord,
} from '../api/delegation';
import { useOpenRecord } from '../open-record';

const inviteForm = z.object({ email });

/** Invites a person by e-mail; the server's answer is the same whether or not they have an
 *  account, so the form says only that the invitation was sent. */
function InviteDelegate() {
  const invite = useInviteDelegate();
  const [sentTo, setSentTo] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    reset,
    formState: { errors },
  } = useForm({ resolver: zodResolver(inviteForm), defaultValues: { email: '' } });
  const onSubmit = handleSubmit(({ email: address }) => {
    setSentTo(null);
    invite.mutate(address, {
      onSuccess: () => {
        setSentTo(address);
        reset();
      },
    });
  });
  const serverFieldError =
    invite.error instanceof ApiError ? invite.error.fieldErrors.email?.[0] : undefined;
  return (
    <form onSubmit={(event) => void onSubmit(event)} noValidate>
      <Group align="flex-end" gap="sm">
        <TextInput
          label="Their e-mail address"
          type="email"
          autoComplete="off"
          required
          maw="100%"
          w={320}
          {...register('email')}
          error={errors.email?.message ?? serverFieldError}
        />
        <Button type="submit" loading={invite.isPending}>
          Invite
        </Button>
      </Group>
      {invite.isError && serverFieldError === undefined && (
        <Alert color="red" variant="outline" mt="sm">
          {errorMessage(invite.error)}
        </Alert>
      )}
      {sentTo !== null && (
        <Text role="status" c="teal.9" mt="sm" style={{ overflowWrap: 'anywhere' }}>
          We e-mailed an invitation to {sentTo}.
        </Text>
      )}
    </form>
  );
}

const statusLabel = { invited: 'Invited', active: 'Can view' } as const;

/** A row of either list: who, their state, and one button that asks first. */
function DelegationItem({
  title,
  detail,
  status,
  actions,
}: {
  title: string;
  detail: string;
  status: Delegate['status'];
  actions: ReactNode;
}) {
  return (
    <List.Item>
      <Group justify="space-between" wrap="wrap" gap="xs">
        <Stack gap={0} miw={0}>
          <Group gap="xs">
            <Text fw={500} style={{ overflowWrap: 'anywhere' }}>
              {title}
            </Text>
            {/* Outlined in the darkest shades: the light badge failed the contrast check. */}
            <Badge variant="outline" color={status === 'active' ? 'teal.9' : 'gray.7'}>
              {statusLabel[status]}
            </Badge>
          </Group>
          <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
            {detail}
          </Text>
        </Stack>
        <Group gap="xs">{actions}</Group>
      </Group>
    </List.Item>
  );
}

/** A red outlined button whose dialog asks before `onConfirm`. */
function ConfirmedRemoval({
  label,
  accessibleLabel,
  title,
  question,
  onConfirm,
}: {
  label: string;
  accessibleLabel: string;
  title: string;
  question: string;
  onConfirm: () => Promise<void>;
}) {
  const [opened, setOpened] = useState(false);
  const [error, setError] = useState<unknown>(null);
  return (
    <>
      <Button
        variant="outline"
        color="red"
        size="xs"
        aria-label={accessibleLabel}
        onClick={() => {
          setError(null);
          setOpened(true);
        }}
      >
        {label}
      </Button>
      <ConfirmModal
        opened={opened}
        onClose={() => {
          setOpened(false);
        }}
        title={title}
        confirmLabel={label}
        confirmColor="red"
        onConfirm={() =>
          onConfirm().then(
            () => {
              setOpened(false);
            },
            (failure: unknown) => {
              setError(failure);
              throw failure;
            },
          )
        }
      >
        <Text style={{ overflowWrap: 'anywhere' }}>{question}</Text>
        {error !== null && (
          <Alert color="red" variant="outline" mt="sm">
            {errorMessage(error)}
          </Alert>
        )}
      </ConfirmModal>
    </>
  );
}

function DelegateItem({ delegate }: { delegate: Delegate }) {
  const remove = useRemoveDelegation();
  const who = delegate.username ?? delegate.email;
  const detail =
    delegate.accepted_at === null
      ? `${delegate.email} · invited ${dayjs(delegate.invited_at).format(dateFormat)}`
      : `${delegate.email} · accepted ${dayjs(delegate.accepted_at).format(dateFormat)}`;
  return (
    <DelegationItem
      title={who}
      detail={detail}
      status={delegate.status}
      actions={
        <ConfirmedRemoval
          label="Revoke"
          accessibleLabel={`Revoke access of ${who}`}
          title="Revoke access"
          question={`Stop ${who} from viewing your record? They will no longer see your photos, X-rays, records, appointments or Dental AI results.`}
          onConfirm={() => remove.mutateAsync(delegate.id)}
        />
      }
    />
  );
}

/** Profile: 'People who can view my record' (docs/product/proxy-access.md). */
function Delegates() {
  const delegates = useDelegates();
  return (
    <Stack gap="sm">
      <Text>
        Invite someone you trust, such as a family member, to view your photos, X-rays, records,
        appointments and Dental AI results. They can look but not change anything, and they never
        see your account settings. You can revoke their access at any time.
      </Text>
      {delegates.isError && (
        <Alert color="red" variant="outline">
          {errorMessage(delegates.error)}
        </Alert>
      )}
      {delegates.data?.length === 0 && <Text c="dimmed">Nobody can view your record.</Text>}
      {delegates.data !== undefined && delegates.data.length > 0 && (
        <List listStyleType="none" spacing="sm" aria-label="People who can view my record">
          {delegates.data.map((delegate) => (
            <DelegateItem key={delegate.id} delegate={delegate} />
          ))}
        </List>
      )}
      <InviteDelegate />
    </Stack>
  );
}

export function DelegatesSection() {
  return (
    <Section title="People who can view my record">
      <Delegates />
    </Section>
  );
}

function ReceivedItem({ grant }: { grant: ReceivedDelegation }) {
  const accept = useAcceptDelegation();
  const remove = useRemoveDelegation();
  const switchRecord = useSwitchRecord();
  const openRecord = useOpenRecord();
  const viewed = useViewedRecord();
  const name = grant.owner.username;
  const invited = grant.status === 'invited';
  return (
    <DelegationItem
      title={`${name}’s record`}
      detail={invited ? `${name} invited you to view their record.` : 'You can view this record.'}
      status={grant.status}
      actions={
        <>
          {invited ? (
            <Button
              size="xs"
              loading={accept.isPending}
              aria-label={`Accept the invitation of ${name}`}
              onClick={() => {
                accept.mutate(grant.id);
              }}
            >
              Accept
            </Button>
          ) : (
            <Button
              size="xs"
              variant="default"
              aria-label={`View ${name}’s record`}
              onClick={() => {
                openRecord(grant.owner);
              }}
            >
              View
            </Button>
          )}
          <ConfirmedRemoval
            label={invited ? 'Decline' : 'Leave'}
            accessibleLabel={
              invited ? `Decline the invitation of ${name}` : `Leave ${name}’s record`
            }
            title={invited ? 'Decline invitation' : 'Stop viewing this record'}
            question={
              invited
                ? `Decline ${name}’s invitation? They can invite you again.`
                : `Stop viewing ${name}’s record? You will need a new invitation to see it again.`
            }
            onConfirm={async () => {
              await remove.mutateAsync(grant.id);
              if (viewed?.id === grant.owner.id) switchRecord(null);
            }}
          />
          {accept.isError && (
            <Text size="sm" c="red" role="alert">
              {errorMessage(accept.error)}
            </Text>
          )}
        </>
      }
    />
  );
}

/** Profile: 'Records shared with me': invitations to accept, records to view or leave. */
function SharedWithMe() {
  const received = useReceivedDelegations();
  return (
    <Stack gap="sm">
      <Text>
        Records other members let you view. Accept an invitation here, then choose the record at the
        top of the screen.
      </Text>
      {received.isError && (
        <Alert color="red" variant="outline">
          {errorMessage(received.error)}
        </Alert>
      )}
      {received.data?.length === 0 && <Text c="dimmed">Nobody has shared a record with you.</Text>}
      {received.data !== undefined && received.data.length > 0 && (
        <List listStyleType="none" spacing="sm" aria-label="Records shared with me">
          {received.data.map((grant) => (
            <ReceivedItem key={grant.id} grant={grant} />
          ))}
        </List>
      )}
    </Stack>
  );
}

export function SharedWithMeSection() {
  return (
    <Section title="Records shared with me">
      <SharedWithMe />
    </Section>
  );
}
