import { render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { ChunkLoadError } from '../lib/lazy-route';
import { sessionStore } from '../lib/session-store';
import { json, stubFetch, testAccount } from '../test/fetch-stub';
import { renderRoute } from '../test/render-route';
import { AppProviders, createQueryClient } from './providers';
import { RouteErrorPage } from './route-error-page';

function signIn() {
  sessionStore.save({ access: 'access-1', refresh: 'refresh-1' });
  return stubFetch({ 'GET /api/account/': () => json(testAccount) });
}

describe('routes', () => {
  it.each(['/', '/account', '/membership', '/oral-photo/add', '/dental-ai/result/42'])(
    'sends a guest from %s to /login, remembering where they came from',
    async (path) => {
      stubFetch({});
      const { router } = renderRoute(path);
      expect(await screen.findByRole('heading', { name: 'Log in', level: 1 })).toBeInTheDocument();
      expect(router.state.location.pathname).toBe('/login');
      expect(router.state.location.state).toMatchObject({ from: { pathname: path } });
    },
  );

  it('frames signed-in screens with the banner, home and account links and the footer', async () => {
    signIn();
    renderRoute('/no-such-page');
    expect(await screen.findByRole('img', { name: 'Dental Companion' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Home' })).toHaveAttribute('href', '/');
    expect(await screen.findByRole('link', { name: 'Hi, Ada' })).toHaveAttribute(
      'href',
      '/account',
    );
    expect(
      await screen.findByText(`© ${new Date().getFullYear()} Smile Clinic Inc.`),
    ).toBeInTheDocument();
  });

  it('answers an unknown address inside the frame', async () => {
    signIn();
    renderRoute('/no-such-page');
    expect(
      await screen.findByRole('heading', { name: 'Page not found', level: 1 }),
    ).toBeInTheDocument();
  });

  it('offers a reload when a route chunk cannot be loaded', async () => {
    const reload = vi.fn();
    vi.stubGlobal('location', { reload });
    const router = createMemoryRouter([
      {
        path: '/',
        errorElement: <RouteErrorPage />,
        lazy: () => Promise.reject(new ChunkLoadError('home')),
      },
    ]);
    render(
      <AppProviders queryClient={createQueryClient()}>
        <RouterProvider router={router} />
      </AppProviders>,
    );
    expect(
      await screen.findByRole('heading', { name: 'This page could not be loaded', level: 1 }),
    ).toBeInTheDocument();
    screen.getByRole('button', { name: 'Reload' }).click();
    expect(reload).toHaveBeenCalledOnce();
  });
});
