import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { forgetPasswordSuccess } from '@dental/contracts';
import { json, problemResponse, stubFetch } from '#web/test/fetch-stub';
import { renderRoute } from '#web/test/render-route';

async function openForgetPassword() {
  const view = renderRoute('/forget-password');
  await screen.findByRole('heading', { name: 'Forgot password', level: 1 });
  return view;
}

describe('Forgot password', () => {
  it('validates the e-mail only after the first submit', async () => {
    const api = stubFetch({});
    const { user } = await openForgetPassword();
    await user.type(screen.getByRole('textbox', { name: 'Email' }), 'ada');
    expect(screen.queryByText('Enter a valid e-mail address.')).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Reset Password' }));
    expect(await screen.findByText('Enter a valid e-mail address.')).toBeInTheDocument();

    await user.clear(screen.getByRole('textbox', { name: 'Email' }));
    expect(await screen.findByText('Email is required.')).toBeInTheDocument();
    expect(api.to('POST /api/account/forget-password/')).toHaveLength(0);
  });

  it('says the reset e-mail is on its way', async () => {
    const api = stubFetch({
      'POST /api/account/forget-password/': () => json({ message: 'Sent.' }),
    });
    const { user } = await openForgetPassword();
    await user.type(screen.getByRole('textbox', { name: 'Email' }), 'ada@example.com');
    await user.click(screen.getByRole('button', { name: 'Reset Password' }));

    expect(await screen.findByRole('status')).toHaveTextContent(forgetPasswordSuccess);
    expect(api.to('POST /api/account/forget-password/')[0]?.body).toEqual({
      email: 'ada@example.com',
    });
  });

  it('shows the server’s error text when the request fails', async () => {
    stubFetch({
      'POST /api/account/forget-password/': () =>
        problemResponse(429, 'Too many requests. Try again in a minute.'),
    });
    const { user } = await openForgetPassword();
    await user.type(screen.getByRole('textbox', { name: 'Email' }), 'ada@example.com');
    await user.click(screen.getByRole('button', { name: 'Reset Password' }));

    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Too many requests. Try again in a minute.',
    );
    expect(screen.queryByText(forgetPasswordSuccess)).not.toBeInTheDocument();
  });
});
