import type { ReactNode } from 'react';
import { Anchor, Checkbox, type CheckboxProps } from '@mantine/core';
import type { LegalDocument } from '../../../components/legal-modals';

function DocumentButton({ children, onClick }: { children: ReactNode; onClick: () => void }) {
  return (
    <Anchor component="button" type="button" inherit onClick={onClick}>
      {children}
    </Anchor>
  );
}

export interface AgreementCheckboxProps extends Omit<CheckboxProps, 'label'> {
  termsName: string;
  onOpenDocument: (document: LegalDocument) => void;
}

/** 'I agree to the {terms} and the Privacy Policy'; the two names open the documents. */
export function AgreementCheckbox({ termsName, onOpenDocument, ...props }: AgreementCheckboxProps) {
  return (
    <Checkbox
      {...props}
      label={
        <>
          I agree to the{' '}
          <DocumentButton
            onClick={() => {
              onOpenDocument('terms');
            }}
          >
            {termsName}
          </DocumentButton>{' '}
          and the{' '}
          <DocumentButton
            onClick={() => {
              onOpenDocument('privacy');
            }}
          >
            Privacy Policy
          </DocumentButton>
        </>
      }
    />
  );
}
