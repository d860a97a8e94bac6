import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { problemTypes } from '@dental/contracts';
import { passwordCheckText } from '#web/components/password-check-dialog';
import { sessionStore } from '#web/lib/session-store';
import {
  deferred,
  json,
  problemResponse,
  stubFetch,
  testAccount,
  typedProblem,
  type Handler,
} from '#web/test/fetch-stub';
import { renderRoute } from '#web/test/render-route';

function signIn() {
  sessionStore.save({ access: 'access-1', refresh: 'refresh-1' });
}

async function openProfile(handlers: Record<string, Handler> = {}) {
  signIn();
  const api = stubFetch({ 'GET /api/account/': () => json(testAccount), ...handlers });
  const view = renderRoute('/account');
  await screen.findByRole('heading', { name: 'Customer Information', level: 2 });
  return { api, ...view };
}

describe('Profile', () => {
  it('shows every section with the customer’s information', async () => {
    await openProfile();
    // Each feature's section keeps its heading whatever its own state: here the calls of the
    // sections other than the account's are not answered, and this browser has no passkeys.
    expect(
      screen.getAllByRole('heading', { level: 2 }).map((heading) => heading.textContent),
    ).toEqual([
      'Customer Information',
      'Profile',
      'Health record details',
      'Social Account Connect',
      'Passkeys',
      'Two-step verification',
      'Notifications on this device',
      'Password and devices',
      'Receipts',
      'Account activity',
      'Shared links',
      'Share with my dental practice',
      'People who can view my record',
      'Records shared with me',
      'Calendar feed',
      'Reports',
      'Download my data',
      'Import a record',
      'Service',
      'Delete Data',
    ]);
    const customer = within(screen.getByRole('region', { name: 'Customer Information' }));
    expect(customer.getByText('Silver')).toBeInTheDocument();
    expect(customer.getByText('500')).toBeInTheDocument();
    expect(customer.getByText('2026-12-31')).toBeInTheDocument();
    expect(customer.getByRole('link', { name: 'Membership Upgrade' })).toHaveAttribute(
      'href',
      '/membership',
    );
    const profile = within(screen.getByRole('region', { name: 'Profile' }));
    expect(profile.getByText('ada@example.com')).toBeInTheDocument();
    expect(profile.queryByRole('textbox', { name: 'Email' })).not.toBeInTheDocument();
    expect(profile.getByText('+1 201 555 0123')).toBeInTheDocument();
    const social = within(screen.getByRole('region', { name: 'Social Account Connect' }));
    expect(social.getByText('No social sign-in is offered on this server.')).toBeInTheDocument();
    expect(await screen.findByRole('link', { name: 'care@smile.test' })).toHaveAttribute(
      'href',
      'mailto:care@smile.test',
    );
  });

  it('edits the name in place, sending the whole user object', async () => {
    const { api, user } = await openProfile({
      'PUT /api/account/': (request) => json({ ...testAccount, ...(request.body as object) }),
    });

    await user.click(screen.getByRole('button', { name: 'Edit name' }));
    const name = screen.getByRole('textbox', { name: 'Name' });
    await user.clear(name);
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Name is required.')).toBeInTheDocument();

    await user.type(name, 'Ada Lovelace');
    await user.click(screen.getByRole('button', { name: 'Save' }));

    expect(await screen.findByRole('link', { name: 'Hi, Ada Lovelace' })).toBeInTheDocument();
    expect(screen.queryByRole('textbox', { name: 'Name' })).not.toBeInTheDocument();
    expect(api.to('PUT /api/account/')[0]?.body).toEqual({
      ...testAccount,
      username: 'Ada Lovelace',
    });
  });

  it('edits the health record details, sending the whole user object, and shows the server’s refusal', async () => {
    let refuse = true;
    const { api, user } = await openProfile({
      'PUT /api/account/': (request) =>
        refuse
          ? problemResponse(400, 'Date of birth cannot be in the future.')
          : json({ ...testAccount, ...(request.body as object) }),
    });
    const section = within(screen.getByRole('region', { name: 'Health record details' }));
    expect(section.getAllByText('Not set')).toHaveLength(4);
    await user.click(section.getByRole('button', { name: 'Edit health record details' }));
    await user.type(section.getByRole('textbox', { name: 'Given name' }), 'Ada');
    await user.type(section.getByRole('textbox', { name: 'Family name' }), 'Lovelace');
    await user.type(section.getByLabelText('Date of birth'), '2999-12-10');
    await user.selectOptions(section.getByRole('combobox', { name: 'Sex' }), 'female');
    await user.click(section.getByRole('button', { name: 'Save' }));
    expect(await section.findByText('Date of birth cannot be in the future.')).toBeInTheDocument();

    refuse = false;
    await user.clear(section.getByLabelText('Date of birth'));
    await user.type(section.getByLabelText('Date of birth'), '1815-12-10');
    await user.click(section.getByRole('button', { name: 'Save' }));
    expect(await section.findByText('Lovelace')).toBeInTheDocument();
    expect(section.getByText('1815-12-10')).toBeInTheDocument();
    expect(section.getByText('Female')).toBeInTheDocument();
    expect(api.to('PUT /api/account/')[1]?.body).toEqual({
      ...testAccount,
      given_name: 'Ada',
      family_name: 'Lovelace',
      birth_date: '1815-12-10',
      sex: 'female',
    });
  });

  it('cancels an edit without sending anything', async () => {
    const { api, user } = await openProfile();
    await user.click(screen.getByRole('button', { name: 'Edit phone' }));
    await user.clear(screen.getByRole('textbox', { name: 'Phone' }));
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.getByText('+1 201 555 0123')).toBeInTheDocument();
    expect(api.to('PUT /api/account/')).toHaveLength(0);
  });

  it('shows the server’s refusal of a phone number under the field', async () => {
    const { user } = await openProfile({
      'PUT /api/account/': () => problemResponse(400, 'Enter a valid phone number.'),
    });
    await user.click(screen.getByRole('button', { name: 'Edit phone' }));
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Enter a valid phone number.')).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Phone' })).toBeInTheDocument();
  });

  it('deletes the account after confirmation and lands on /login', async () => {
    const deleted = deferred<Response>();
    const { api, user, router } = await openProfile({
      'DELETE /api/account/': () => deleted.promise,
      'POST /api/account/logout/': () => problemResponse(401, 'Session ended.'),
    });

    await user.click(screen.getByRole('button', { name: 'Delete Account and Data' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete Account and Data' });
    expect(within(dialog).getByRole('button', { name: 'Cancel' })).toBeEnabled();
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));

    await waitFor(() => {
      expect(within(dialog).getByRole('button', { name: 'Delete' })).toBeDisabled();
    });
    expect(within(dialog).getByRole('button', { name: 'Delete' })).toHaveAttribute('data-loading');
    expect(api.to('DELETE /api/account/')).toHaveLength(1);

    deleted.resolve(new Response(null, { status: 204 }));
    expect(await screen.findByRole('heading', { name: 'Log in', level: 1 })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/login');
    expect(sessionStore.getSnapshot().access).toBeNull();
  });

  it('keeps the dialog open with the reason when deletion fails', async () => {
    const { user } = await openProfile({
      'DELETE /api/account/': () => problemResponse(503, 'Please try again in a moment.'),
    });
    await user.click(screen.getByRole('button', { name: 'Delete Account and Data' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete Account and Data' });
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));

    expect(await within(dialog).findByText('Please try again in a moment.')).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Delete' })).toBeEnabled();
    expect(sessionStore.getSnapshot().access).toBe('access-1');
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
    signIn();
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
    signIn();
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
