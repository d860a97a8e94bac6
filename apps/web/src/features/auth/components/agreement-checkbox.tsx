import { useState, type ReactNode } from 'react';
import { Anchor, Checkbox, type CheckboxProps } from '@mantine/core';
import type { LegalDocument } from '#web/components/legal-document';
import { LegalModals } from '#web/components/legal-modals';

function DocumentButton({ children, onClick }: { children: ReactNode; onClick: () => void }) {
  return (
    <Anchor component="button" type="button" inherit onClick={onClick}>
      {children}
    </Anchor>
  );
}

export interface AgreementCheckboxProps extends Omit<CheckboxProps, 'label'> {
  termsName: string;
}

/** 'I agree to the {terms} and the Privacy Policy'; the two names open those documents in the legal
 *  dialogs, which come with the checkbox. */
export function AgreementCheckbox({ termsName, ...props }: AgreementCheckboxProps) {
  const [openDocument, setOpenDocument] = useState<LegalDocument | null>(null);
  return (
    <>
      <Checkbox
        {...props}
        label={
          <>
            I agree to the{' '}
            <DocumentButton
              onClick={() => {
                setOpenDocument('terms');
              }}
            >
              {termsName}
            </DocumentButton>{' '}
            and the{' '}
            <DocumentButton
              onClick={() => {
                setOpenDocument('privacy');
              }}
            >
              Privacy Policy
            </DocumentButton>
          </>
        }
      />
      <LegalModals
        opened={openDocument}
        onClose={() => {
          setOpenDocument(null);
        }}
      />
    </>
  );
}
