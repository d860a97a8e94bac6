import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { sessionStore } from '#web/lib/session-store';
import { json, stubFetch, testAccount } from '#web/test/fetch-stub';
import { renderRoute } from '#web/test/render-route';

describe('Home', () => {
  it('greets, offers the upgrade and links every topic card', async () => {
    sessionStore.save({ access: 'access-1', refresh: 'refresh-1' });
    stubFetch({ 'GET /api/account/': () => json(testAccount) });
    renderRoute('/');

    expect(
      await screen.findByRole('heading', { name: 'You are ready to go!', level: 1 }),
    ).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Membership Upgrade' })).toHaveAttribute(
      'href',
      '/membership',
    );
    const topics = within(screen.getByRole('list', { name: 'Topics' }));
    expect(topics.getAllByRole('link').map((link) => link.getAttribute('href'))).toEqual([
      '/oral-photo',
      '/dental-ai',
      '/dental-knowledge',
      '/appointments',
      '/medical-records',
      '/oral-supplier',
      '/virtual-consultation',
    ]);
    expect(topics.getByRole('link', { name: 'Dental & Tx Knowledgement' })).toBeInTheDocument();
    expect(
      topics.getByRole('link', { name: 'Oral Hyglene Suppliers Knowledgement' }),
    ).not.toHaveAccessibleDescription();
    // The notes come with the account's plan.
    await topics.findByText('Silver: 10 Dental AI uses a year');
    expect(topics.getByRole('link', { name: 'Dental AI' })).toHaveAccessibleDescription(
      'Silver: 10 Dental AI uses a year',
    );
    expect(topics.getAllByText('Silver: 1GB of storage for X-rays and records')).toHaveLength(2);
    expect(topics.getByText('Included in every plan')).toBeVisible();
    expect(topics.queryByText('Members feature')).not.toBeInTheDocument();
  });

  it('says what the member’s own plan gives, with no lock once it is a paid one', async () => {
    sessionStore.save({ access: 'access-1', refresh: 'refresh-1' });
    stubFetch({ 'GET /api/account/': () => json({ ...testAccount, customer_level: 'Gold' }) });
    const { container } = renderRoute('/');
    const topics = within(await screen.findByRole('list', { name: 'Topics' }));
    // Found by its description: the card may be drawn before the account arrives.
    await topics.findByRole('link', {
      name: 'Dental AI',
      description: 'Gold: 30 Dental AI uses a year',
    });
    expect(topics.getAllByText('Gold: 5GB of storage for X-rays and records')).toHaveLength(2);
    expect(topics.queryByText(/^Silver:/)).not.toBeInTheDocument();
    expect(container.querySelector('.tabler-icon-lock')).toBeNull();
  });

  it('logs out: revokes the refresh token, forgets the session and shows /login', async () => {
    sessionStore.save({ access: 'access-1', refresh: 'refresh-1' });
    const api = stubFetch({
      'GET /api/account/': () => json(testAccount),
      'POST /api/account/logout/': () => new Response(null, { status: 204 }),
    });
    const { user, router } = renderRoute('/');

    await user.click(await screen.findByRole('button', { name: 'Log out' }));

    expect(await screen.findByRole('heading', { name: 'Log in', level: 1 })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/login');
    expect(api.to('POST /api/account/logout/')[0]?.body).toEqual({ refresh: 'refresh-1' });
    expect(sessionStorage.getItem('dental.access')).toBeNull();
    expect(sessionStorage.getItem('dental.refresh')).toBeNull();
  });

  it('logs out locally even when the server cannot be reached', async () => {
    sessionStore.save({ access: 'access-1', refresh: 'refresh-1' });
    stubFetch({
      'GET /api/account/': () => json(testAccount),
      'POST /api/account/logout/': () => Promise.reject(new TypeError('Failed to fetch')),
    });
    const { user } = renderRoute('/');
    await user.click(await screen.findByRole('button', { name: 'Log out' }));
    expect(await screen.findByRole('heading', { name: 'Log in', level: 1 })).toBeInTheDocument();
    expect(sessionStore.getSnapshot().access).toBeNull();
  });
});
