import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { passwordMismatchMessage, termsNotAgreedMessage } from '@dental/contracts';
import { json, problemResponse, stubFetch } from '#web/test/fetch-stub';
import { publicConfigQuery } from '#web/lib/public-config';
import { renderRoute } from '#web/test/render-route';

async function openSignup() {
  const view = renderRoute('/signup');
  await screen.findByRole('heading', { name: 'Sign up', level: 1 });
  return view;
}

type User = Awaited<ReturnType<typeof openSignup>>['user'];

async function fillValidForm(user: User, confirmPassword = 'correct horse') {
  await user.type(screen.getByRole('textbox', { name: 'Email' }), 'ada@example.com');
  await user.type(screen.getByRole('textbox', { name: 'Phone' }), '2015550123');
  await user.type(screen.getByRole('textbox', { name: 'Name' }), 'Ada');
  await user.type(screen.getByLabelText('Password'), 'correct horse');
  await user.type(screen.getByLabelText('Confirm Password'), confirmPassword);
  await user.click(
    screen.getByRole('checkbox', {
      name: 'I agree to the Terms of Service and the Privacy Policy',
    }),
  );
}

describe('Sign up', () => {
  it('shows no message before the first submit and every rule after it', async () => {
    const api = stubFetch({});
    const { user } = await openSignup();
    expect(screen.queryByText('Email is required.')).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Sign up' }));

    expect(await screen.findByText('Email is required.')).toBeInTheDocument();
    expect(screen.getByText('Name is required.')).toBeInTheDocument();
    expect(screen.getByText('Password is required.')).toBeInTheDocument();
    expect(screen.getByText('Confirm Password is required.')).toBeInTheDocument();
    expect(screen.getByText(termsNotAgreedMessage)).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Email' })).toHaveAccessibleDescription(
      'Email is required.',
    );

    await user.type(screen.getByRole('textbox', { name: 'Email' }), 'ada@');
    expect(await screen.findByText('Enter a valid e-mail address.')).toBeInTheDocument();
    await user.type(screen.getByLabelText('Password'), 'short');
    expect(await screen.findByText('Password must be at least 8 characters.')).toBeInTheDocument();
    await user.type(screen.getByRole('textbox', { name: 'Phone' }), '12');
    expect(await screen.findByText('Enter a valid phone number.')).toBeInTheDocument();
    expect(api.to('POST /api/account/register/')).toHaveLength(0);
  });

  it('offers the United States as the default phone country', async () => {
    stubFetch({});
    await openSignup();
    expect(screen.getByRole('combobox', { name: 'Phone number country' })).toHaveValue('US');
  });

  it('tells a password mismatch in a popup and sends nothing', async () => {
    const api = stubFetch({});
    const { user } = await openSignup();
    await fillValidForm(user, 'another horse');

    await user.click(screen.getByRole('button', { name: 'Sign up' }));

    const popup = await screen.findByRole('dialog');
    expect(within(popup).getByText(passwordMismatchMessage)).toBeInTheDocument();
    expect(api.to('POST /api/account/register/')).toHaveLength(0);
    await user.click(within(popup).getByRole('button', { name: 'Close' }));
    await waitFor(() => {
      expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    });
  });

  it('registers with the phone in E.164 and goes to /login, replacing the sign-up entry', async () => {
    const api = stubFetch({ 'POST /api/account/register/': () => json({}, 201) });
    const { user, router } = await openSignup();
    await fillValidForm(user);

    await user.click(screen.getByRole('button', { name: 'Sign up' }));

    expect(await screen.findByRole('heading', { name: 'Log in', level: 1 })).toBeInTheDocument();
    expect(router.state.historyAction).toBe('REPLACE');
    const [registration] = api.to('POST /api/account/register/');
    expect(registration?.body).toEqual({
      email: 'ada@example.com',
      phone: '+12015550123',
      username: 'Ada',
      password: 'correct horse',
    });
    expect(registration?.headers.has('Authorization')).toBe(false);
  });

  it('shows the server’s refusal in a popup and under the field it concerns', async () => {
    stubFetch({
      'POST /api/account/register/': () =>
        problemResponse(409, 'An account with this e-mail already exists.', {
          email: ['This e-mail is already registered.'],
        }),
    });
    const { user, router, queryClient } = await openSignup();
    await fillValidForm(user);
    // The refusal names the customer-service address from the public configuration.
    await waitFor(() => {
      expect(queryClient.getQueryState(publicConfigQuery.queryKey)?.status).toBe('success');
    });

    await user.click(screen.getByRole('button', { name: 'Sign up' }));

    const popup = await screen.findByRole('dialog', { name: 'Sign up failed' });
    expect(
      within(popup).getByText(
        'An account with this e-mail already exists. If you deleted your account, customer service at care@smile.test can reactivate it.',
      ),
    ).toBeInTheDocument();
    expect(screen.getByText('This e-mail is already registered.')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/signup');
  });

  it('opens the Terms dialog from the checkbox label without ticking it', async () => {
    stubFetch({});
    const { user } = await openSignup();

    await user.click(screen.getByRole('button', { name: 'Terms of Service' }));
    expect(
      await screen.findByRole('dialog', {
        name: 'Terms and Conditions of Usage of our Website and Mobile Application',
      }),
    ).toBeInTheDocument();
    expect(
      screen.getByRole('checkbox', {
        name: 'I agree to the Terms of Service and the Privacy Policy',
      }),
    ).not.toBeChecked();
  });

  it('links back to log in', async () => {
    stubFetch({});
    await openSignup();
    expect(screen.getByRole('link', { name: 'Log in' })).toHaveAttribute('href', '/login');
  });
});
