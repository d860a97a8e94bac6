import { useState } from 'react';
import { createPortal } from 'react-dom';
import { Alert, Button, Code, Group, SimpleGrid, Stack, Text } from '@mantine/core';
import { downloadText } from '#web/lib/download';
import { usePublicConfig } from '#web/lib/public-config';
import classes from './recovery-codes.module.css';

export const recoveryCodesFileName = 'recovery-codes.txt';
export const copiedMessage = 'The recovery codes are copied. Paste them somewhere safe.';
export const copyFailedMessage =
  'This browser did not allow copying. Download or print the codes, or write them down.';

/** The codes as copied and downloaded: what they are for, then one code a line. No e-mail
 *  address or name: a lost sheet should not say whose codes they are
 *  (docs/decisions/second-factor.md). */
export function recoveryCodesText(codes: readonly string[], companyName: string): string {
  return [
    `Recovery codes for your ${companyName} account`,
    'Each code signs you in once instead of a code from your authenticator app. Keep them safe.',
    '',
    ...codes,
    '',
  ].join('\n');
}

/** Shown once, right after turning on: only their hashes are kept. Copy, download (.txt) and
 *  print (the codes alone) help keep them. */
export function RecoveryCodesNotice({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const config = usePublicConfig();
  const [saved, setSaved] = useState<'copied' | 'copy-failed' | null>(null);
  const companyName = config.data?.company_name ?? 'Dental Companion';
  const text = recoveryCodesText(codes, companyName);
  const copy = () => {
    // The Clipboard API exists only on secure pages and may be refused; say so either way.
    const clipboard = navigator.clipboard as Clipboard | undefined;
    void (clipboard?.writeText(text) ?? Promise.reject(new Error('no clipboard'))).then(
      () => {
        setSaved('copied');
      },
      () => {
        setSaved('copy-failed');
      },
    );
  };
  return (
    <Stack gap="sm">
      <Stack gap="sm">
        <Alert color="blue" variant="light" title="Save your recovery codes">
          If you lose your phone, each of these codes signs you in once instead of a code from the
          app. They are shown only now: copy, download or print them, and keep them safe.
        </Alert>
        <Text fw={700}>Recovery codes for your {companyName} account</Text>
        <SimpleGrid cols={2} spacing="xs" aria-label="Recovery codes">
          {codes.map((code) => (
            <Code key={code} data-testid="recovery-code">
              {code}
            </Code>
          ))}
        </SimpleGrid>
      </Stack>
      <Group gap="xs">
        <Button variant="default" onClick={copy}>
          Copy codes
        </Button>
        <Button
          variant="default"
          onClick={() => {
            downloadText(text, recoveryCodesFileName, 'text/plain');
          }}
        >
          Download codes
        </Button>
        <Button
          variant="default"
          onClick={() => {
            window.print();
          }}
        >
          Print codes
        </Button>
      </Group>
      <Text role="status" size="sm" c={saved === 'copy-failed' ? 'red' : undefined}>
        {saved === 'copied' ? copiedMessage : saved === 'copy-failed' ? copyFailedMessage : ''}
      </Text>
      <Button onClick={onDone} w="fit-content">
        I have saved my recovery codes
      </Button>
      {createPortal(
        <pre className={classes.sheet} data-testid="recovery-codes-sheet">
          {text}
        </pre>,
        document.body,
      )}
    </Stack>
  );
}
