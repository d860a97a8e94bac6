import { Alert, Anchor, Stack, Title } from '@mantine/core';
import { PageSpinner } from '#web/components/page-spinner';
import { useAccount } from '#web/lib/account';
import { errorMessage } from '#web/lib/api-client';
import { useDocumentTitle } from '#web/lib/document-title';
import { CustomerInformationSection } from '#web/features/account/components/customer-information-section';
import { DeleteAccountSection } from '#web/features/account/components/delete-account-section';
import { HealthRecordSection } from '#web/features/account/components/health-record-section';
import { ProfileDetailsSection } from '#web/features/account/components/profile-details-section';
import { ServiceSection } from '#web/features/account/components/service-section';
import { AccountActivitySection } from '#web/features/activity/components/account-activity-section';
import { PasskeysSection } from '#web/features/auth/components/passkeys-section';
import { PasswordAndDevicesSection } from '#web/features/auth/components/password-and-devices-section';
import { SocialAccountsSection } from '#web/features/auth/components/social-accounts-section';
import { TwoStepSection } from '#web/features/auth/components/two-step-section';
import { CalendarFeedSection } from '#web/features/calendar/components/calendar-feed-section';
import { CareTeamSection } from '#web/features/care-team/components/care-team-section';
import { DataExportSection } from '#web/features/data-export/components/data-export-section';
import { DataImportSection } from '#web/features/data-import/components/data-import-section';
import { ReportsSection } from '#web/features/reports/components/reports-section';
import {
  DelegatesSection,
  SharedWithMeSection,
} from '#web/features/delegation/components/delegation-sections';
import { PushSection } from '#web/features/auth/components/push-section';
import { ReceiptsSection } from '#web/features/receipts/components/receipts-section';
import { SharedLinksSection } from '#web/features/sharing/components/shared-links-section';

/** Profile (docs/product/accounts.md#profile): the account's own sections and those of the
 *  features reached from it (sign-in methods, receipts, activity, share links, sharing with the
 *  practice, delegation, calendar feed, reports,
 *  data export, notifications on this device), each exported by its feature. */
export default function ProfileRoute() {
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
          <CustomerInformationSection account={account.data} />
          <ProfileDetailsSection account={account.data} />
          <HealthRecordSection account={account.data} />
          <SocialAccountsSection account={account.data} />
          <PasskeysSection />
          <TwoStepSection />
          <PushSection />
          <PasswordAndDevicesSection />
          <ReceiptsSection />
          <AccountActivitySection />
          <SharedLinksSection />
          <CareTeamSection />
          <DelegatesSection />
          <SharedWithMeSection />
          <CalendarFeedSection />
          <ReportsSection />
          <DataExportSection />
          <DataImportSection />
          <ServiceSection />
          <DeleteAccountSection />
        </>
      )}
    </Stack>
  );
}
