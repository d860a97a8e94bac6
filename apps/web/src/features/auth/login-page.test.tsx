import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { termsNotAgreedMessage } from '@dental/contracts';
import { sessionStore } from '#web/lib/session-store';
import {
  deferred,
  json,
  problemResponse,
  stubFetch,
  testAccount,
  testConfig,
} from '#web/test/fetch-stub';
import { renderRoute } from '#web/test/render-route';

const socialClient = (provider: 'google' | 'facebook') => ({
  provider,
  client_id: `${provider}-client`,
  authorize_url: `https://${provider}.example/authorize`,
  token_url: `https://${provider}.example/token`,
  scope: 'email',
});
const withSocialProviders = {
  'GET /api/config/': () =>
    json({ ...testConfig, social_providers: [socialClient('google'), socialClient('facebook')] }),
};

const tokens = { access: 'access-1', refresh: 'refresh-1' };

async function openLogin(path = '/login') {
  const view = renderRoute(path);
  await screen.findByRole('heading', { name: 'Log in', level: 1 });
  return view;
}

function termsCheckbox() {
  return screen.getByRole('checkbox', {
    name: 'I agree to the Terms and Conditions and the Privacy Policy',
  });
}

describe('Login', () => {
  it('shows no message before the first submit, every rule after it, then updates live', async () => {
    const api = stubFetch({});
    const { user } = await openLogin();

    expect(screen.queryByText('Email is required.')).not.toBeInTheDocument();
    expect(screen.queryByText(termsNotAgreedMessage)).not.toBeInTheDocument();

    await user.type(screen.getByLabelText('Email'), 'ada');
    expect(screen.queryByText('Enter a valid e-mail address.')).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Log in' }));
    expect(await screen.findByText('Enter a valid e-mail address.')).toBeInTheDocument();
    expect(screen.getByText('Password is required.')).toBeInTheDocument();
    expect(screen.getByText(termsNotAgreedMessage)).toBeInTheDocument();

    await user.type(screen.getByLabelText('Email'), '@example.com');
    await waitFor(() => {
      expect(screen.queryByText('Enter a valid e-mail address.')).not.toBeInTheDocument();
    });
    await user.clear(screen.getByLabelText('Email'));
    expect(await screen.findByText('Email is required.')).toBeInTheDocument();
    expect(api.to('POST /api/account/login/')).toHaveLength(0);
  });

  it('puts the focus on the first field to correct when the form is sent', async () => {
    stubFetch({});
    const { user } = await openLogin();

    await user.click(screen.getByRole('button', { name: 'Log in' }));
    expect(screen.getByLabelText('Email')).toHaveFocus();

    await user.type(screen.getByLabelText('Email'), 'ada@example.com');
    await user.click(screen.getByRole('button', { name: 'Log in' }));
    expect(screen.getByLabelText('Password')).toHaveFocus();

    await user.type(screen.getByLabelText('Password'), 'correct horse');
    await user.click(screen.getByRole('button', { name: 'Log in' }));
    expect(termsCheckbox()).toHaveFocus();
  });

  it('requires the terms checkbox before it sends anything', async () => {
    const api = stubFetch({});
    const { user } = await openLogin();

    await user.type(screen.getByLabelText('Email'), 'ada@example.com');
    await user.type(screen.getByLabelText('Password'), 'correct horse');
    await user.click(screen.getByRole('button', { name: 'Log in' }));

    expect(await screen.findByText(termsNotAgreedMessage)).toBeInTheDocument();
    expect(api.to('POST /api/account/login/')).toHaveLength(0);

    await user.click(termsCheckbox());
    await waitFor(() => {
      expect(screen.queryByText(termsNotAgreedMessage)).not.toBeInTheDocument();
    });
  });

  it('shows a spinner while the login call is pending, then goes home signed in', async () => {
    const answer = deferred<Response>();
    const api = stubFetch({
      'POST /api/account/login/': () => answer.promise,
      'GET /api/account/': () => json(testAccount),
    });
    const { user, router } = await openLogin();

    await user.type(screen.getByLabelText('Email'), ' ada@example.com ');
    await user.type(screen.getByLabelText('Password'), 'correct horse');
    await user.click(termsCheckbox());
    await user.click(screen.getByRole('button', { name: 'Log in' }));

    await waitFor(() => {
      expect(screen.getByRole('button', { name: 'Log in' })).toHaveAttribute('data-loading');
    });
    expect(screen.getByRole('button', { name: 'Log in' })).toBeDisabled();
    const [login] = api.to('POST /api/account/login/');
    expect(login?.body).toEqual({
      login_type: 'native',
      email: 'ada@example.com',
      password: 'correct horse',
    });
    expect(login?.headers.has('Authorization')).toBe(false);

    answer.resolve(json(tokens));
    expect(
      await screen.findByRole('heading', { name: 'You are ready to go!', level: 1 }),
    ).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/');
    expect(sessionStorage.getItem('dental.access')).toBe('access-1');
    expect(sessionStorage.getItem('dental.refresh')).toBe('refresh-1');
    expect(await screen.findByRole('link', { name: 'Hi, Ada' })).toHaveAttribute(
      'href',
      '/account',
    );
    expect(api.to('GET /api/account/')).toHaveLength(1);
    expect(api.to('GET /api/account/')[0]?.headers.get('Authorization')).toBe('Bearer access-1');
  });

  it('brings a guest back to the page they asked for, replacing the login entry', async () => {
    stubFetch({
      'POST /api/account/login/': () => json(tokens),
      'GET /api/account/': () => json(testAccount),
    });
    const { user, router } = await openLogin('/appointments?order=upcoming');
    expect(router.state.location.pathname).toBe('/login');

    await user.type(screen.getByLabelText('Email'), 'ada@example.com');
    await user.type(screen.getByLabelText('Password'), 'correct horse');
    await user.click(termsCheckbox());
    await user.click(screen.getByRole('button', { name: 'Log in' }));

    expect(
      await screen.findByRole('heading', { name: 'Appointments Remind & History', level: 1 }),
    ).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/appointments');
    expect(router.state.location.search).toBe('?order=upcoming');
    expect(router.state.historyAction).toBe('REPLACE');
  });

  it('leaves at once when a session already exists', async () => {
    stubFetch({ 'GET /api/account/': () => json(testAccount) });
    sessionStore.save(tokens);
    const { router } = renderRoute('/login');

    expect(
      await screen.findByRole('heading', { name: 'You are ready to go!', level: 1 }),
    ).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/');
  });

  it('shows the server’s detail in the message dialog, which only Close dismisses', async () => {
    stubFetch({
      'POST /api/account/login/': () => problemResponse(401, 'Incorrect e-mail or password.'),
    });
    const { user } = await openLogin();

    await user.type(screen.getByLabelText('Email'), 'ada@example.com');
    await user.type(screen.getByLabelText('Password'), 'wrong password');
    await user.click(termsCheckbox());
    await user.click(screen.getByRole('button', { name: 'Log in' }));

    const dialog = await screen.findByRole('dialog', { name: 'Log in failed' });
    expect(within(dialog).getByText('Incorrect e-mail or password.')).toBeInTheDocument();
    expect(sessionStorage.getItem('dental.access')).toBeNull();

    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    await waitFor(() => {
      expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    });
  });

  it('shows the terms hint for 3 seconds when the disabled social buttons are clicked', async () => {
    stubFetch(withSocialProviders);
    await openLogin();
    const google = await screen.findByRole('button', { name: 'Continue with Google' });
    expect(google).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Continue with Facebook' })).toBeDisabled();
    // Apple is not configured here, so it is not offered.
    expect(screen.queryByRole('button', { name: 'Continue with Apple' })).not.toBeInTheDocument();
    const hint = screen.getByRole('status');
    expect(hint).toBeEmptyDOMElement();

    vi.useFakeTimers();
    const area = google.parentElement;
    if (area === null) throw new Error('The social buttons have no area around them.');
    fireEvent.click(area);
    expect(hint).toHaveTextContent(termsNotAgreedMessage);

    act(() => {
      vi.advanceTimersByTime(2999);
    });
    expect(hint).toHaveTextContent(termsNotAgreedMessage);
    act(() => {
      vi.advanceTimersByTime(1);
    });
    expect(hint).toBeEmptyDOMElement();
  });

  it('gives no hint once the terms are ticked, and enables the social buttons', async () => {
    stubFetch(withSocialProviders);
    const { user } = await openLogin();
    await user.click(termsCheckbox());
    const google = await screen.findByRole('button', { name: 'Continue with Google' });
    expect(google).toBeEnabled();
    const area = google.parentElement;
    if (area === null) throw new Error('The social buttons have no area around them.');
    fireEvent.click(area);
    expect(screen.getByRole('status')).toBeEmptyDOMElement();
  });

  it('opens the Terms and the Privacy dialogs from the checkbox label', async () => {
    stubFetch({});
    const { user } = await openLogin();

    await user.click(screen.getByRole('button', { name: 'Terms and Conditions' }));
    const terms = await screen.findByRole('dialog', {
      name: 'Terms and Conditions of Usage of our Website and Mobile Application',
    });
    expect(termsCheckbox()).not.toBeChecked();
    await user.click(within(terms).getByRole('button', { name: 'Back' }));
    await waitFor(() => {
      expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    });

    await user.click(screen.getByRole('button', { name: 'Privacy Policy' }));
    const privacy = await screen.findByRole('dialog', { name: 'Web And Mobile Privacy Policy' });
    expect(
      within(privacy).getByRole('heading', { name: 'HIPAA Notice of Privacy Practices' }),
    ).toBeInTheDocument();
  });

  it('links to password recovery, sign-up and customer service', async () => {
    stubFetch({});
    await openLogin();
    expect(screen.getByRole('link', { name: 'Forgot Password?' })).toHaveAttribute(
      'href',
      '/forget-password',
    );
    expect(screen.getByRole('link', { name: 'Sign up' })).toHaveAttribute('href', '/signup');
    expect(await screen.findByRole('link', { name: 'care@smile.test' })).toHaveAttribute(
      'href',
      'mailto:care@smile.test',
    );
    expect(screen.getByText('© 2024 Smile Clinic Inc.')).toBeInTheDocument();
  });
});
