import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import {
  clinicMessagePaths,
  type ClinicMessageThread,
  type ClinicMessageThreadSummary,
} from '@dental/contracts';
import { json } from '#web/test/fetch-stub';
import { renderConsole, testStaff } from '../test/render-console';

const threadId = '0b7c3a52-4f1e-4d2a-9c6b-8e5f1a2d3c4b';
const older = 'a1e2c3d4-5b6a-4c7d-8e9f-0a1b2c3d4e5f';
const patientId = 'f0e1d2c3-b4a5-4968-8776-655443322110';

const me = testStaff;

const summary = (
  id: string,
  subject: string,
  unread: number,
  assigned_to: ClinicMessageThreadSummary['assigned_to'],
): ClinicMessageThreadSummary => ({
  id,
  subject,
  status: 'open',
  created_at: '2026-11-28T09:00:00Z',
  last_message_at: '2026-11-29T09:00:00Z',
  patient: { id: patientId, username: 'Ada Patient' },
  assigned_to,
  unread,
});

const thread: ClinicMessageThread = {
  ...summary(threadId, 'A loose filling', 0, null),
  messages: [
    {
      id: 'c9d8e7f6-a5b4-4c3d-9e2f-1a0b9c8d7e6f',
      author: { role: 'member', name: 'Ada Patient' },
      body: 'It moves <b>when</b> I chew.\n<img src=x onerror="alert(1)">',
      created_at: '2026-11-29T09:00:00Z',
      read_at: '2026-11-29T09:05:00Z',
      attachments: [],
    },
  ],
};

const open = (path: string) =>
  renderConsole(
    path,
    {
      [`GET ${clinicMessagePaths.threads}?status=open`]: () =>
        json({
          results: [
            summary(threadId, 'A loose filling', 2, null),
            summary(older, 'Invoice question', 0, { id: me.id, name: me.name }),
          ],
          next: null,
        }),
      [`GET ${clinicMessagePaths.thread(threadId)}`]: () => json(thread),
      [`PATCH ${clinicMessagePaths.thread(threadId)}`]: () =>
        json(summary(threadId, 'A loose filling', 0, { id: me.id, name: me.name })),
      [`POST ${clinicMessagePaths.thread(threadId)}`]: () =>
        json({ id: 'e1e2e3e4-f5f6-4a7b-8c9d-0e1f2a3b4c5d' }, 201),
    },
    { unread: 3 },
  );

describe('the console’s Messages', () => {
  it('lists open conversations with the patient, the assignee and unread marks, and counts unread in the navigation', async () => {
    open('/clinic/messages');
    const list = await screen.findByRole('list', { name: 'Conversations' });
    const [newest, second] = within(list).getAllByRole('listitem');
    expect(newest && within(newest).getByRole('link').textContent).toBe('A loose filling');
    expect(newest && within(newest).getByText('2 unread')).toBeInTheDocument();
    expect(newest && within(newest).getByText('Not assigned')).toBeInTheDocument();
    expect(newest && within(newest).getByText(/^Ada Patient ·/)).toBeInTheDocument();
    expect(second && within(second).getByText('Assigned to Dr. Lee')).toBeInTheDocument();
    expect(second && within(second).queryByText(/unread/)).toBeNull();
    const nav = screen.getByRole('navigation', { name: 'Console' });
    expect(
      await within(nav).findByRole('link', { name: 'Messages, 3 unread' }),
    ).toBeInTheDocument();
  });

  it('shows a member’s message as text, never as HTML', async () => {
    open(`/clinic/messages/${threadId}`);
    const list = await screen.findByRole('list', { name: 'Messages' });
    expect(
      within(list).getByText(
        (_, element) =>
          element?.textContent === 'It moves <b>when</b> I chew.\n<img src=x onerror="alert(1)">',
      ),
    ).toBeInTheDocument();
    expect(list.querySelector('b, img')).toBeNull();
  });

  it('assigns the conversation to the reader, closes it and sends a reply', async () => {
    const { api, user } = open(`/clinic/messages/${threadId}`);
    await user.click(await screen.findByRole('button', { name: 'Assign to me' }));
    await user.click(screen.getByRole('button', { name: 'Close conversation' }));
    await user.type(screen.getByRole('textbox', { name: 'Reply' }), 'Please come in on Monday.');
    await user.click(screen.getByRole('button', { name: 'Send reply' }));
    const key = (method: string) => `${method} ${clinicMessagePaths.thread(threadId)}`;
    await waitFor(() => {
      expect(api.to(key('POST'))).toHaveLength(1);
    });
    expect(api.to(key('PATCH')).map((request) => request.body)).toEqual([
      { assigned_to: me.id },
      { status: 'closed' },
    ]);
    expect(api.to(key('POST'))[0]?.body).toEqual({ body: 'Please come in on Monday.' });
    await waitFor(() => {
      expect(screen.getByRole('textbox', { name: 'Reply' })).toHaveValue('');
    });
  });
});
