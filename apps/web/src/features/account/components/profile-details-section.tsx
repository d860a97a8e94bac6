import type { Account } from '@dental/contracts';
import { Detail, DetailsList } from '#web/components/details-list';
import { Section } from '#web/components/section';
import { NameEditor } from './name-editor';
import { PhoneEditor } from './phone-editor';

/** The e-mail, and the name and phone edited in place (docs/product/accounts.md#profile). */
export function ProfileDetailsSection({ account }: { account: Account }) {
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
