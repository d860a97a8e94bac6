import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { messagePaths, type MessageThread, type MessageThreadSummary } from '@dental/contracts';
import { sessionStore } from '#web/lib/session-store';
import { json, stubFetch, testAccount } from '#web/test/fetch-stub';
import { renderRoute } from '#web/test/render-route';

const threadId = '0b7c3a52-4f1e-4d2a-9c6b-8e5f1a2d3c4b';
const older = 'a1e2c3d4-5b6a-4c7d-8e9f-0a1b2c3d4e5f';

const summary = (id: string, subject: string, unread: number): MessageThreadSummary => ({
  id,
  subject,
  status: 'open',
  created_at: '2026-11-28T09:00:00Z',
  last_message_at: '2026-11-29T09:00:00Z',
  unread,
});

const thread: MessageThread = {
  ...summary(threadId, 'A loose filling', 0),
  messages: [
    {
      id: 'c9d8e7f6-a5b4-4c3d-9e2f-1a0b9c8d7e6f',
      author: { role: 'member', name: 'Ada' },
      body: 'It moves <b>when</b> I chew.\n<img src=x onerror="alert(1)">',
      created_at: '2026-11-29T09:00:00Z',
      read_at: null,
      attachments: [],
    },
    {
      id: 'd1c2b3a4-f5e6-4d7c-8b9a-0f1e2d3c4b5a',
      author: { role: 'staff', name: 'Dr. Lee' },
      body: 'Please come in on Monday.',
      created_at: '2026-11-29T10:00:00Z',
      read_at: null,
      attachments: [],
    },
  ],
};

function open(path: string) {
  sessionStore.save({ access: 'access-1', refresh: 'refresh-1' });
  const api = stubFetch({
    'GET /api/account/': () => json(testAccount),
    [`GET ${messagePaths.threads}`]: () =>
      json({
        results: [summary(threadId, 'A loose filling', 2), summary(older, 'Invoice question', 0)],
        next: null,
      }),
    [`GET ${messagePaths.thread(threadId)}`]: () => json(thread),
  });
  return { api, ...renderRoute(path) };
}

describe('Messages', () => {
  it('lists the conversations in the order the API gives, newest first, with unread marks', async () => {
    open('/messages');
    const list = await screen.findByRole('list', { name: 'Conversations' });
    const items = within(list).getAllByRole('listitem');
    expect(items.map((item) => within(item).getByRole('link').textContent)).toEqual([
      'A loose filling',
      'Invoice question',
    ]);
    const [newest, older_] = items;
    expect(newest && within(newest).getByText('2 unread')).toBeInTheDocument();
    expect(older_ && within(older_).queryByText(/unread/)).toBeNull();
  });

  it('shows a message body as text, never as HTML', async () => {
    open(`/messages/${threadId}`);
    const list = await screen.findByRole('list', { name: 'Messages' });
    expect(
      within(list).getByText(
        (_, element) =>
          element?.textContent === 'It moves <b>when</b> I chew.\n<img src=x onerror="alert(1)">',
      ),
    ).toBeInTheDocument();
    expect(list.querySelector('b, img')).toBeNull();
    expect(within(list).getByText(/Dr\. Lee/)).toBeInTheDocument();
  });
});
