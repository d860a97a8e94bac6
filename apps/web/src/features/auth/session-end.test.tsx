import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { problemTypes } from '@dental/contracts';
import { sessionStore } from '#web/lib/session-store';
import { signOutNotice } from '#web/lib/sign-out-notice';
import { problemResponse, stubFetch, typedProblem } from '#web/test/fetch-stub';
import { renderRoute } from '#web/test/render-route';

const idleText = 'You were signed out after 30 minutes without activity. Please log in again.';
const lifetimeText = 'Your session reached its 12-hour limit. Please log in again.';

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
