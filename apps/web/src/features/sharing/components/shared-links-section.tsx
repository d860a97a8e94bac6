import { LinkSection } from '#web/components/link-section';
import { paths } from '#web/config/paths';

/** The way to the member's share links for a dentist (docs/product/sharing.md). */
export function SharedLinksSection() {
  return (
    <LinkSection title="Shared links" to={paths.sharedLinks} linkText="Show shared links">
      See the links you made to share photos, X-rays and records with a dentist, how often each was
      opened, and revoke them.
    </LinkSection>
  );
}
