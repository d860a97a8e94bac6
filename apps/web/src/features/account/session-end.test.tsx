import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { problemTypes } from '@dental/contracts';
import { sessionStore } from '#web/lib/session-store';
import { signOutNotice } from '#web/lib/sign-out-notice';
import { json, problemResponse, stubFetch, testAccount } from '#web/test/fetch-stub';
import { renderRoute } from '#web/test/render-route';
import { passwordCheckText } from './components/password-check-dialog';

const idleText = 'You were signed out after 30 minutes without activity. Please log in again.';
const lifetimeText = 'Your session reached its 12-hour limit. Please log in again.';

/** A problem answer with a `type` the app acts on. */
function typedProblem(status: number, type: string, detail: string): Response {
  return new Response(JSON.stringify({ type, title: 'Error', status, detail }), {
    status,
    headers: { 'Content-Type': 'application/problem+json' },
  });
}

function signedIn() {
  sessionStore.save({ access: 'access-1', refresh: 'refresh-1' });
}

describe('a session the server ended on its own', () => {
  it('signs out after the idle timeout and says why on the Login screen, once', async () => {
    signedIn();
    const api = stubFetch({
      // The access token expired meanwhile; the refresh tells that the session was idle.
      'GET /api/account/': () => problemResponse(401, 'Your session has ended.'),
      'POST /api/account/token/refresh/': () =>
        typedProblem(401, problemTypes.sessionIdle, idleText),
    });
    const { router } = renderRoute('/account');

    expect(await screen.findByRole('heading', { name: 'Log in', level: 1 })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/login');
    const notice = screen.getByRole('alert');
    expect(within(notice).getByText('You have been signed out')).toBeInTheDocument();
    expect(within(notice).getByText(idleText)).toBeInTheDocument();
    expect(sessionStore.getSnapshot()).toEqual({ access: null, refresh: null });
    expect(api.to('POST /api/account/token/refresh/')).toHaveLength(1);
    // Shown on this visit only.
    expect(signOutNotice()).toBeNull();
  });

  it('signs out at the absolute lifetime with its own explanation', async () => {
    signedIn();
    stubFetch({
      'GET /api/account/': () => typedProblem(401, problemTypes.sessionLifetime, lifetimeText),
      'POST /api/account/token/refresh/': () =>
        typedProblem(401, problemTypes.sessionLifetime, lifetimeText),
    });
    renderRoute('/account');
    expect(await screen.findByText(lifetimeText)).toBeInTheDocument();
  });

  it('explains nothing when the session ended any other way (a logout elsewhere)', async () => {
    signedIn();
    stubFetch({
      'GET /api/account/': () => problemResponse(401, 'Your session has ended.'),
      'POST /api/account/token/refresh/': () => problemResponse(401, 'Your session has ended.'),
    });
    renderRoute('/account');
    expect(await screen.findByRole('heading', { name: 'Log in', level: 1 })).toBeInTheDocument();
    expect(screen.queryByText('You have been signed out')).not.toBeInTheDocument();
  });
});

describe('deleting the account long after the sign-in', () => {
  const reauthenticationRequired = () =>
    typedProblem(403, problemTypes.reauthenticationRequired, passwordCheckText);

  async function confirmDeletion() {
    const { user, router } = renderRoute('/account');
    await user.click(await screen.findByRole('button', { name: 'Delete Account and Data' }));
    const confirm = await screen.findByRole('dialog', { name: 'Delete Account and Data' });
    await user.click(within(confirm).getByRole('button', { name: 'Delete' }));
    return {
      user,
      router,
      dialog: await screen.findByRole('dialog', { name: 'Confirm with your password' }),
    };
  }

  it('asks for the password, re-checks it, then deletes and signs out', async () => {
    signedIn();
    let deletes = 0;
    const api = stubFetch({
      'GET /api/account/': () => json(testAccount),
      // The first attempt is refused; after the password re-check the second one goes through.
      'DELETE /api/account/': () =>
        ++deletes === 1 ? reauthenticationRequired() : new Response(null, { status: 204 }),
      'POST /api/account/reauthenticate/': () => new Response(null, { status: 204 }),
      'POST /api/account/logout/': () => new Response(null, { status: 204 }),
    });
    const { user, router, dialog } = await confirmDeletion();
    // The 403 did not end the session.
    expect(sessionStore.getSnapshot().access).toBe('access-1');
    expect(within(dialog).getByText(passwordCheckText)).toBeInTheDocument();

    await user.type(within(dialog).getByLabelText(/Password/), 'correct horse');
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));

    expect(await screen.findByRole('heading', { name: 'Log in', level: 1 })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/login');
    expect(api.to('POST /api/account/reauthenticate/')[0]?.body).toEqual({
      password: 'correct horse',
    });
    expect(api.to('DELETE /api/account/')).toHaveLength(2);
  });

  it('shows a wrong password under the field and deletes nothing', async () => {
    signedIn();
    const api = stubFetch({
      'GET /api/account/': () => json(testAccount),
      'DELETE /api/account/': reauthenticationRequired,
      'POST /api/account/reauthenticate/': () =>
        problemResponse(400, 'The password is incorrect.', {
          password: ['The password is incorrect.'],
        }),
    });
    const { user, dialog } = await confirmDeletion();

    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await within(dialog).findByText('Password is required.')).toBeInTheDocument();
    expect(api.to('POST /api/account/reauthenticate/')).toHaveLength(0);

    await user.type(within(dialog).getByLabelText(/Password/), 'not the password');
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await within(dialog).findByText('The password is incorrect.')).toBeInTheDocument();
    await waitFor(() => {
      expect(within(dialog).getByRole('button', { name: 'Delete' })).toBeEnabled();
    });
    expect(api.to('DELETE /api/account/')).toHaveLength(1);
    expect(sessionStore.getSnapshot().access).toBe('access-1');
  });
});
