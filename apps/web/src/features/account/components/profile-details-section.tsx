import type { Account } from '@dental/contracts';
import { DetailsList } from '#web/components/details-list';
import { Section } from '#web/components/section';
import { EmailEditor } from './email-editor';
import { NameEditor } from './name-editor';
import { PhoneEditor } from './phone-editor';

/** The e-mail, name and phone, each edited in place (docs/product/accounts.md#profile). */
export function ProfileDetailsSection({ account }: { account: Account }) {
  return (
    <Section title="Profile">
      <DetailsList>
        <EmailEditor account={account} />
        <NameEditor account={account} />
        <PhoneEditor account={account} />
      </DetailsList>
    </Section>
  );
}
