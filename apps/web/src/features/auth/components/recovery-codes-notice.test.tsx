import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AppProviders, createQueryClient } from '#web/app/providers';
import { stubFetch } from '#web/test/fetch-stub';
import {
  copiedMessage,
  copyFailedMessage,
  RecoveryCodesNotice,
  recoveryCodesFileName,
  recoveryCodesText,
} from './recovery-codes-notice';

const codes = Array.from({ length: 10 }, (_, index) => `code-${String(index).padStart(4, '0')}`);

async function showCodes(onDone = vi.fn()) {
  stubFetch({});
  const user = userEvent.setup({ delay: null });
  render(
    <AppProviders queryClient={createQueryClient()}>
      <RecoveryCodesNotice codes={codes} onDone={onDone} />
    </AppProviders>,
  );
  // The file and the sheet name the practice from the public config.
  await screen.findByText('Recovery codes for your Smile Clinic Inc. account');
  return { user, onDone };
}

function stubClipboard(writeText: (text: string) => Promise<void>) {
  Object.defineProperty(navigator, 'clipboard', { configurable: true, value: { writeText } });
}

afterEach(() => {
  Reflect.deleteProperty(navigator, 'clipboard');
  vi.restoreAllMocks();
});

describe('Recovery codes notice', () => {
  it('writes the codes one a line under what they are for, naming no account', () => {
    const text = recoveryCodesText(codes, 'Smile Clinic Inc.');
    expect(text.split('\n')).toEqual([
      'Recovery codes for your Smile Clinic Inc. account',
      'Each code signs you in once instead of a code from your authenticator app. Keep them safe.',
      '',
      ...codes,
      '',
    ]);
  });

  it('copies the codes and says so', async () => {
    const writeText = vi.fn(() => Promise.resolve());
    const { user } = await showCodes();
    // After user-event's setup, which puts its own clipboard in place.
    stubClipboard(writeText);
    await user.click(screen.getByRole('button', { name: 'Copy codes' }));
    expect(await screen.findByText(copiedMessage)).toHaveAttribute('role', 'status');
    expect(writeText).toHaveBeenCalledWith(recoveryCodesText(codes, 'Smile Clinic Inc.'));
  });

  it('says when the browser refuses to copy', async () => {
    const { user } = await showCodes();
    stubClipboard(() => Promise.reject(new DOMException('Denied', 'NotAllowedError')));
    await user.click(screen.getByRole('button', { name: 'Copy codes' }));
    expect(await screen.findByText(copyFailedMessage)).toHaveAttribute('role', 'status');
  });

  it('downloads the codes as a text file', async () => {
    const blobs: Blob[] = [];
    URL.createObjectURL = vi.fn((blob: Blob) => {
      blobs.push(blob);
      return 'blob:codes';
    });
    URL.revokeObjectURL = vi.fn();
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {
      // jsdom does not navigate.
    });
    const { user } = await showCodes();
    await user.click(screen.getByRole('button', { name: 'Download codes' }));
    expect(click).toHaveBeenCalledOnce();
    expect(click.mock.contexts[0]).toMatchObject({ download: recoveryCodesFileName });
    expect(blobs[0]?.type).toBe('text/plain');
    expect(await blobs[0]?.text()).toBe(recoveryCodesText(codes, 'Smile Clinic Inc.'));
  });

  it('prints, and ends when the member says the codes are saved', async () => {
    const print = vi.spyOn(window, 'print').mockImplementation(() => undefined);
    const { user, onDone } = await showCodes();
    await user.click(screen.getByRole('button', { name: 'Print codes' }));
    expect(print).toHaveBeenCalledOnce();
    await user.click(screen.getByRole('button', { name: 'I have saved my recovery codes' }));
    expect(onDone).toHaveBeenCalledOnce();
  });
});
