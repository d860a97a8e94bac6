import { Divider } from '@mantine/core';
import termsAndConditions from '../../../../content/legal/terms-and-conditions.md?raw';
import privacyPolicy from '../../../../content/legal/privacy-policy.md?raw';
import hipaaNotice from '../../../../content/legal/hipaa-notice.md?raw';
import { InfoModal } from './info-modal';
import type { LegalModalsProps } from './legal-document';
import { Markdown } from './markdown';
import classes from './legal-modals.module.css';

export const termsTitle = 'Terms and Conditions of Usage of our Website and Mobile Application';
export const privacyTitle = 'Web And Mobile Privacy Policy';

/** The dialog title already names the document, so its own top heading is not repeated. */
function withoutTitle(markdown: string): string {
  return markdown.replace(/^#\s[^\n]*\n+/, '');
}

/** The Terms and the Privacy dialogs (docs/product/accounts.md#legal-texts): scrollable, content
 *  65vh high. The privacy one holds the privacy policy followed by the HIPAA notice of privacy
 *  practices. */
export function LegalDialogs({ opened, onClose }: LegalModalsProps) {
  return (
    <>
      <InfoModal opened={opened === 'terms'} onClose={onClose} title={termsTitle}>
        <div className={classes.body} tabIndex={0}>
          <Markdown headingOffset={1}>{withoutTitle(termsAndConditions)}</Markdown>
        </div>
      </InfoModal>
      <InfoModal opened={opened === 'privacy'} onClose={onClose} title={privacyTitle}>
        <div className={classes.body} tabIndex={0}>
          <Markdown headingOffset={1}>{withoutTitle(privacyPolicy)}</Markdown>
          <Divider my="lg" />
          <Markdown headingOffset={1}>{hipaaNotice}</Markdown>
        </div>
      </InfoModal>
    </>
  );
}
