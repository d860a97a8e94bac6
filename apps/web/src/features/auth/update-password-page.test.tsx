import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { passwordMismatchMessage } from '@dental/contracts';
import { problemResponse, stubFetch } from '#web/test/fetch-stub';
import { renderRoute } from '#web/test/render-route';

const checkPath = 'POST /api/account/update-password/check/';
/** The API's answer to the check on open: the link can still set a password. */
const usable = { [checkPath]: () => new Response(null, { status: 204 }) };
const usedLinkMessage =
  'This password reset link is invalid, has already been used or has expired. Please request a new one.';

async function openReset(path = '/update-password?key=reset-key-123') {
  const view = renderRoute(path);
  await screen.findByRole('heading', { name: 'Reset password', level: 1 });
  return view;
}

/** Opens the page and waits for the form, shown once the link is checked. */
async function openUsableReset() {
  const view = await openReset();
  await screen.findByLabelText('New Password');
  return view;
}

describe('Reset password', () => {
  it('shows no message before the first submit and the rules after it', async () => {
    const api = stubFetch(usable);
    const { user } = await openUsableReset();
    expect(screen.queryByText('Password is required.')).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Update password' }));
    expect(await screen.findByText('Password is required.')).toBeInTheDocument();
    expect(screen.getByText('Confirm New Password is required.')).toBeInTheDocument();

    await user.type(screen.getByLabelText('New Password'), 'short');
    expect(await screen.findByText('Password must be at least 8 characters.')).toBeInTheDocument();
    expect(api.to('POST /api/account/update-password/')).toHaveLength(0);
  });

  it('tells a mismatch in the popup and sends nothing', async () => {
    const api = stubFetch(usable);
    const { user } = await openUsableReset();
    await user.type(screen.getByLabelText('New Password'), 'correct horse');
    await user.type(screen.getByLabelText('Confirm New Password'), 'another horse');
    await user.click(screen.getByRole('button', { name: 'Update password' }));

    const popup = await screen.findByRole('dialog');
    expect(within(popup).getByText(passwordMismatchMessage)).toBeInTheDocument();
    expect(api.to('POST /api/account/update-password/')).toHaveLength(0);
  });

  it('sends the key from the link and goes to /login', async () => {
    const api = stubFetch({
      ...usable,
      'POST /api/account/update-password/': () => new Response(null, { status: 204 }),
    });
    const { user, router } = await openUsableReset();
    await user.type(screen.getByLabelText('New Password'), 'correct horse');
    await user.type(screen.getByLabelText('Confirm New Password'), 'correct horse');
    await user.click(screen.getByRole('button', { name: 'Update password' }));

    expect(await screen.findByRole('heading', { name: 'Log in', level: 1 })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/login');
    expect(api.to('POST /api/account/update-password/')[0]?.body).toEqual({
      password: 'correct horse',
      key: 'reset-key-123',
    });
  });

  it('shows the server’s detail when the key is refused', async () => {
    stubFetch({
      ...usable,
      'POST /api/account/update-password/': () =>
        problemResponse(400, 'This reset link has expired. Please ask for a new one.'),
    });
    const { user, router } = await openUsableReset();
    await user.type(screen.getByLabelText('New Password'), 'correct horse');
    await user.type(screen.getByLabelText('Confirm New Password'), 'correct horse');
    await user.click(screen.getByRole('button', { name: 'Update password' }));

    const popup = await screen.findByRole('dialog', { name: 'Password not changed' });
    expect(
      within(popup).getByText('This reset link has expired. Please ask for a new one.'),
    ).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/update-password');
  });

  it('says on open that a used link is invalid, with no form to fill in', async () => {
    const api = stubFetch({
      [checkPath]: () => problemResponse(400, usedLinkMessage, { key: [usedLinkMessage] }),
    });
    await openReset();
    expect(await screen.findByRole('alert')).toHaveTextContent(usedLinkMessage);
    expect(screen.queryByLabelText('New Password')).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Forgot password' })).toHaveAttribute(
      'href',
      '/forget-password',
    );
    expect(api.to(checkPath)[0]?.body).toEqual({ key: 'reset-key-123' });
    expect(api.to('POST /api/account/update-password/')).toHaveLength(0);
  });

  it('shows the form when the link cannot be checked just now', async () => {
    stubFetch({ [checkPath]: () => problemResponse(429, 'Too many attempts.') });
    await openReset();
    expect(await screen.findByLabelText('New Password')).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('explains a link without its key instead of showing the form', async () => {
    const api = stubFetch({});
    await openReset('/update-password');
    expect(api.to(checkPath)).toHaveLength(0);
    expect(screen.getByRole('alert')).toHaveTextContent(
      'This reset link is incomplete. Please ask for a new one.',
    );
    expect(screen.queryByLabelText('New Password')).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Forgot password' })).toHaveAttribute(
      'href',
      '/forget-password',
    );
  });
});
