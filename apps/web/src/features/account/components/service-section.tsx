import { useState } from 'react';
import { Anchor, Stack, Text } from '@mantine/core';
import type { LegalDocument } from '#web/components/legal-document';
import { LegalModals } from '#web/components/legal-modals';
import { Section } from '#web/components/section';
import { usePublicConfig } from '#web/lib/public-config';

/** The Terms, the Privacy Policy and customer service's address (docs/product/accounts.md#profile). */
export function ServiceSection() {
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
