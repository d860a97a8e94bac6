import { useState } from 'react';
import { Alert, Anchor, Button, Progress, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import dayjs from 'dayjs';
import utc from 'dayjs/plugin/utc';
import { formatStorage, type Account } from '@dental/contracts';
import { paths } from '#web/config/paths';
import { ConfirmModal } from '#web/components/confirm-modal';
import type { LegalDocument } from '#web/components/legal-document';
import { LegalModals } from '#web/components/legal-modals';
import { PageSpinner } from '#web/components/page-spinner';
import { errorMessage } from '#web/lib/api-client';
import { planEndText, useCurrentPlan } from '#web/lib/current-plan';
import { dateFormat } from '#web/lib/dates';
import { useDocumentTitle } from '#web/lib/document-title';
import { usePublicConfig } from '#web/lib/public-config';
import { CalendarFeedSection } from './components/calendar-feed-section';
import { DataExportSection } from './components/data-export-section';
import { DelegatesSection, SharedWithMeSection } from './components/delegation-sections';
import { needsPassword, useDeleteAccount } from './api/delete-account';
import { useAccount } from '#web/lib/account';
import { Detail, DetailsList } from './components/details-list';
import { NameEditor } from './components/name-editor';
import { PasskeysSection } from './components/passkeys-section';
import { PasswordCheckDialog } from './components/password-check-dialog';
import { PhoneEditor } from './components/phone-editor';
import { Section } from './components/section';
import { SocialAccounts } from './components/social-accounts-section';
import { TwoStepSection } from './components/two-step-section';

dayjs.extend(utc);

/** When the member's plan ends (docs/decisions/membership-current-plan.md). */
function PlanEnd() {
  const plan = useCurrentPlan();
  return plan.data ? <Detail label="Plan ends">{planEndText(plan.data)}</Detail> : null;
}

function CustomerInformation({ account }: { account: Account }) {
  return (
    <Section title="Customer Information">
      <DetailsList>
        <Detail label="Customer level">{account.customer_level}</Detail>
        <PlanEnd />
        <Detail label="Current points">{account.points.toLocaleString('en-US')}</Detail>
        <Detail label="Points expiration date">
          {/* Points expire at the end of a year in UTC; show that calendar day everywhere. */}
          {account.points_expired_at === null
            ? 'None'
            : dayjs.utc(account.points_expired_at).format(dateFormat)}
        </Detail>
      </DetailsList>
      <StorageUsage account={account} />
      <Anchor component={Link} to={paths.membership} display="inline-block" mt="sm">
        Membership Upgrade
      </Anchor>
    </Section>
  );
}

/** The real storage bar (docs/product/records.md#storage-quota) in place of a static '2.3GB of 15GB
 *  used' (docs/decisions/storage-usage-on-profile.md). */
function StorageUsage({ account }: { account: Account }) {
  const { storage_used_bytes: used, storage_quota_bytes: quota } = account;
  const text = `${formatStorage(used)} of ${formatStorage(quota)} used`;
  return (
    <Stack gap={4} mt="sm">
      <Text size="sm">Storage for X-rays and records: {text}</Text>
      <Progress
        value={Math.min(100, (used / quota) * 100)}
        aria-label={`Storage: ${text}`}
        color={used >= quota ? 'red' : undefined}
      />
    </Stack>
  );
}

function ProfileDetails({ account }: { account: Account }) {
  return (
    <Section title="Profile">
      <DetailsList>
        <Detail label="Email">{account.email}</Detail>
        <NameEditor account={account} />
        <PhoneEditor account={account} />
      </DetailsList>
    </Section>
  );
}

/** The password change and the signed-in devices (docs/decisions/signed-in-devices.md). */
function PasswordAndDevices() {
  return (
    <Section title="Password and devices">
      <Text mb="sm">
        Change your password, and see the devices signed in to your account and sign them out.
      </Text>
      <Anchor component={Link} to={paths.accountSecurity}>
        Manage password and devices
      </Anchor>
    </Section>
  );
}

/** The member's own audit trail (docs/decisions/audit-trail.md). */
function AccountActivity() {
  return (
    <Section title="Account activity">
      <Text mb="sm">
        See when you signed in and when your photos, records and other health data were used.
      </Text>
      <Anchor component={Link} to={paths.accountActivity}>
        Show account activity
      </Anchor>
    </Section>
  );
}

/** The member's share links for a dentist (docs/product/sharing.md). */
function SharedLinks() {
  return (
    <Section title="Shared links">
      <Text mb="sm">
        See the links you made to share photos, X-rays and records with a dentist, how often each
        was opened, and revoke them.
      </Text>
      <Anchor component={Link} to={paths.sharedLinks}>
        Show shared links
      </Anchor>
    </Section>
  );
}

function Service() {
  const config = usePublicConfig();
  const [openDocument, setOpenDocument] = useState<LegalDocument | null>(null);
  return (
    <Section title="Service">
      <Stack gap="xs" align="flex-start">
        <Anchor
          component="button"
          type="button"
          onClick={() => {
            setOpenDocument('terms');
          }}
        >
          Terms and Conditions
        </Anchor>
        <Anchor
          component="button"
          type="button"
          onClick={() => {
            setOpenDocument('privacy');
          }}
        >
          Privacy Policy
        </Anchor>
        {config.data && (
          <Text>
            customer service email{' '}
            <Anchor href={`mailto:${config.data.customer_service_email}`} inherit>
              {config.data.customer_service_email}
            </Anchor>
          </Text>
        )}
      </Stack>
      <LegalModals
        opened={openDocument}
        onClose={() => {
          setOpenDocument(null);
        }}
      />
    </Section>
  );
}

/** Deletion deactivates the account (docs/product/accounts.md#deactivation): the user is logged out
 *  and sent to /login. Long after the sign-in the server asks for the password first
 *  (docs/decisions/session-timeouts.md). */
function DeleteData() {
  const [step, setStep] = useState<'closed' | 'confirm' | 'password'>('closed');
  const deleteAccount = useDeleteAccount();
  const close = () => {
    setStep('closed');
  };
  return (
    <Section title="Delete Data">
      <Text mb="sm">
        Your account will be deactivated and you will be logged out. Your records are kept; to use
        them again, contact customer service.
      </Text>
      <Button
        color="red"
        onClick={() => {
          deleteAccount.reset();
          setStep('confirm');
        }}
      >
        Delete Account and Data
      </Button>
      <ConfirmModal
        opened={step === 'confirm'}
        onClose={close}
        title="Delete Account and Data"
        confirmLabel="Delete"
        confirmColor="red"
        onConfirm={() =>
          deleteAccount.mutateAsync().catch((error: unknown) => {
            if (needsPassword(error)) {
              deleteAccount.reset();
              setStep('password');
            }
            throw error;
          })
        }
      >
        <Text>Do you really want to delete your account and data? You will be logged out.</Text>
        {deleteAccount.isError && (
          <Alert color="red" variant="outline" mt="sm">
            {errorMessage(deleteAccount.error)}
          </Alert>
        )}
      </ConfirmModal>
      <PasswordCheckDialog
        opened={step === 'password'}
        onClose={close}
        confirmLabel="Delete"
        confirmColor="red"
        pending={deleteAccount.isPending}
        error={deleteAccount.error}
        onSubmit={(password) => {
          deleteAccount.mutate({ password });
        }}
        onSubmitCode={(code) => {
          deleteAccount.mutate({ code });
        }}
      />
    </Section>
  );
}

/** Profile (docs/product/accounts.md#profile): customer information, profile, social accounts,
 *  service, delete data. */
export default function ProfilePage() {
  useDocumentTitle('My Account');
  const account = useAccount();
  return (
    <Stack gap="md">
      <Title order={1}>My Account</Title>
      {account.isPending && <PageSpinner />}
      {account.isError && (
        <Alert color="red" variant="outline">
          {errorMessage(account.error)}{' '}
          <Anchor
            component="button"
            type="button"
            inherit
            onClick={() => {
              void account.refetch();
            }}
          >
            Try again
          </Anchor>
        </Alert>
      )}
      {account.data && (
        <>
          <CustomerInformation account={account.data} />
          <ProfileDetails account={account.data} />
          <SocialAccounts account={account.data} />
          <Section title="Passkeys">
            <PasskeysSection />
          </Section>
          <Section title="Two-step verification">
            <TwoStepSection />
          </Section>
          <PasswordAndDevices />
          <AccountActivity />
          <SharedLinks />
          <Section title="People who can view my record">
            <DelegatesSection />
          </Section>
          <Section title="Records shared with me">
            <SharedWithMeSection />
          </Section>
          <Section title="Calendar feed">
            <CalendarFeedSection />
          </Section>
          <Section title="Download my data">
            <DataExportSection />
          </Section>
          <Service />
          <DeleteData />
        </>
      )}
    </Stack>
  );
}
