import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { messagePaths } from '@dental/contracts';
import { sessionStore } from '#web/lib/session-store';
import { json, stubFetch, testAccount } from '#web/test/fetch-stub';
import { renderRoute } from '#web/test/render-route';

describe('Home’s Messages card', () => {
  it('links to the messages and says how many of the practice’s are unread', async () => {
    sessionStore.save({ access: 'access-1', refresh: 'refresh-1' });
    stubFetch({
      'GET /api/account/': () => json(testAccount),
      [`GET ${messagePaths.unread}`]: () => json({ unread: 3 }),
    });
    renderRoute('/');
    const card = await screen.findByRole('link', { name: /Messages with the practice/ });
    expect(card).toHaveAttribute('href', '/messages');
    expect(await screen.findByText('3 unread')).toBeInTheDocument();
  });
});
