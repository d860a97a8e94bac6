import { LinkSection } from '#web/components/link-section';
import { paths } from '#web/config/paths';

/** The way to the member's own audit trail (docs/decisions/audit-trail.md). */
export function AccountActivitySection() {
  return (
    <LinkSection
      title="Account activity"
      to={paths.accountActivity}
      linkText="Show account activity"
    >
      See when you signed in and when your photos, records and other health data were used.
    </LinkSection>
  );
}
