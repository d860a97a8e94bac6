import { LinkSection } from '#web/components/link-section';
import { paths } from '#web/config/paths';

/** The way to the password change and the signed-in devices
 *  (docs/decisions/signed-in-devices.md). */
export function PasswordAndDevicesSection() {
  return (
    <LinkSection
      title="Password and devices"
      to={paths.accountSecurity}
      linkText="Manage password and devices"
    >
      Change your password, and see the devices signed in to your account and sign them out.
    </LinkSection>
  );
}
