import { Anchor, Stack, Title } from '@mantine/core';
import { Link } from 'react-router';
import { paths } from '#web/config/paths';
import { useDocumentTitle } from '#web/lib/document-title';
import { ChangePasswordForm } from './components/change-password-form';
import { SignedInDevices } from './components/signed-in-devices';

/** Password and devices (docs/product/accounts.md#password-and-devices): change the password and
 *  sign out devices; the e-mails about a new device link here. */
export default function SecurityPage() {
  useDocumentTitle('Password and devices');
  return (
    <Stack gap="md">
      <Anchor component={Link} to={paths.account}>
        Back to My Account
      </Anchor>
      <Title order={1}>Password and devices</Title>
      <SignedInDevices />
      <ChangePasswordForm />
    </Stack>
  );
}
