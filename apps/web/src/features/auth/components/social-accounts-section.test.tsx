import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { accountPaths, problemTypes } from '@dental/contracts';
import { sessionStore } from '#web/lib/session-store';
import { json, stubFetch, testAccount, testConfig } from '#web/test/fetch-stub';
import { renderRoute } from '#web/test/render-route';
import { passwordCheckText } from '#web/components/password-check-dialog';

const linked = {
  ...testAccount,
  google_account: { email: 'ada@gmail.example', social_media_account: 'link-1' },
};
const unlinkPath = `${accountPaths.socialMediaAccount}google/link-1/`;

describe('Social Account Connect', () => {
  it('asks for the password again when the sign-in is not recent, then disconnects', async () => {
    sessionStore.save({ access: 'access-1', refresh: 'refresh-1' });
    let deletes = 0;
    const api = stubFetch({
      'GET /api/config/': () =>
        json({
          ...testConfig,
          social_providers: [
            {
              provider: 'google',
              client_id: 'google-client',
              authorize_url: 'https://google.example/authorize',
              token_url: 'https://google.example/token',
              scope: 'email',
            },
          ],
        }),
      'GET /api/account/': () => json(linked),
      [`POST ${accountPaths.reauthenticate}`]: () => new Response(null, { status: 204 }),
      [`DELETE ${unlinkPath}`]: () =>
        ++deletes === 1
          ? new Response(
              JSON.stringify({
                type: problemTypes.reauthenticationRequired,
                title: 'Forbidden',
                status: 403,
                detail: passwordCheckText,
              }),
              { status: 403, headers: { 'Content-Type': 'application/problem+json' } },
            )
          : json(testAccount),
    });
    const { user } = renderRoute('/account');
    const social = within(await screen.findByRole('region', { name: 'Social Account Connect' }));

    await user.click(await social.findByRole('button', { name: 'Disconnect Google' }));
    const dialog = within(
      await screen.findByRole('dialog', { name: 'Confirm with your password' }),
    );
    await user.type(dialog.getByLabelText('Password', { selector: 'input' }), 'correct horse');
    await user.click(dialog.getByRole('button', { name: 'Disconnect' }));

    expect(await social.findByRole('button', { name: 'Connect Google' })).toBeInTheDocument();
    expect(api.to(`POST ${accountPaths.reauthenticate}`)[0]?.body).toEqual({
      password: 'correct horse',
    });
    expect(api.to(`DELETE ${unlinkPath}`)).toHaveLength(2);
    await waitFor(() => {
      expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    });
  });
});
