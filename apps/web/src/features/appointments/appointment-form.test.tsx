import { fireEvent, screen, within } from '@testing-library/react';
import dayjs from 'dayjs';
import { describe, expect, it } from 'vitest';
import {
  appointmentPaths,
  pastReminderMessage,
  type Appointment,
  type AppointmentRequest,
} from '@dental/contracts';
import { listPageSize } from '#web/lib/list-pages';
import { sessionStore } from '#web/lib/session-store';
import { json, problemResponse, stubFetch, testAccount } from '#web/test/fetch-stub';
import { renderRoute } from '#web/test/render-route';
import { todayToNextMonth } from './appointment-list-page';
import { noReminderTimeMessage, reminderChoiceNotes } from './components/appointment-form';

const listPath = appointmentPaths.list;
const range = todayToNextMonth();
const upcomingPath = `${listPath}?order=upcoming&startDate=${range.startDate}&endDate=${range.endDate}&limit=${String(listPageSize)}`;

function openNew(save: () => Response = () => json({}, 201)) {
  sessionStore.save({ access: 'access-1', refresh: 'refresh-1' });
  const api = stubFetch({
    'GET /api/account/': () => json(testAccount),
    [`POST ${listPath}`]: save,
  });
  return { api, ...renderRoute('/appointments/add') };
}

/** Date and time inputs take a typed value at once; user-event types them key by key. */
function setWhen(when: dayjs.Dayjs) {
  fireEvent.change(screen.getByLabelText(/^Date/), {
    target: { value: when.format('YYYY-MM-DD') },
  });
  fireEvent.change(screen.getByLabelText(/^Time/), { target: { value: when.format('HH:mm') } });
}

const choice = (name: string) => screen.getByRole('checkbox', { name });

describe('New Appointment', () => {
  it('starts at the next whole hour', async () => {
    const before = dayjs().add(1, 'hour').startOf('hour');
    openNew();
    await screen.findByRole('heading', { name: 'New Appointment', level: 1 });
    const after = dayjs().add(1, 'hour').startOf('hour');
    const shown = `${screen.getByLabelText<HTMLInputElement>(/^Date/).value}T${screen.getByLabelText<HTMLInputElement>(/^Time/).value}`;
    expect([before, after].map((when) => when.format('YYYY-MM-DDTHH:mm'))).toContain(shown);
  });

  it('offers no reminder that is already past, and says why', async () => {
    openNew();
    await screen.findByRole('heading', { name: 'New Appointment', level: 1 });
    // A visit five days away: one week before was two days ago.
    setWhen(dayjs().add(5, 'day').hour(10).minute(0));

    const week = choice('1 week before');
    expect(week).toBeDisabled();
    expect(week).toHaveAccessibleDescription(reminderChoiceNotes.past);
    expect(choice('1 day before')).toBeEnabled();
    expect(choice('1 hour before')).toBeEnabled();
    expect(choice('1 day before')).not.toHaveAccessibleDescription(reminderChoiceNotes.past);

    // Ten days away, one week before is ahead again.
    setWhen(dayjs().add(10, 'day').hour(10).minute(0));
    expect(choice('1 week before')).toBeEnabled();
  });

  it('leaves out a ticked choice once the date makes it past, and asks for another', async () => {
    const { api, user } = openNew();
    await screen.findByRole('heading', { name: 'New Appointment', level: 1 });
    setWhen(dayjs().add(10, 'day').hour(10).minute(0));
    await user.click(screen.getByRole('switch', { name: 'E-mail alert' }));
    await user.click(choice('1 week before'));
    expect(choice('1 week before')).toBeChecked();

    setWhen(dayjs().add(5, 'day').hour(10).minute(0));
    expect(choice('1 week before')).not.toBeChecked();
    await user.click(screen.getByRole('button', { name: 'Save' }));

    expect(await screen.findByText(noReminderTimeMessage)).toBeInTheDocument();
    expect(api.to(`POST ${listPath}`)).toHaveLength(0);
  });

  it('shows the API’s refusal of a reminder already past as it says it', async () => {
    const { api, user } = openNew(() =>
      problemResponse(400, pastReminderMessage, { alert_before: [pastReminderMessage] }),
    );
    await screen.findByRole('heading', { name: 'New Appointment', level: 1 });
    // Past for the API's clock (a slow save, a wrong clock here): the form cannot know.
    setWhen(dayjs().add(3, 'day').hour(10).minute(0));
    await user.click(screen.getByRole('switch', { name: 'E-mail alert' }));
    await user.click(choice('1 day before'));
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await user.click(
      within(await screen.findByRole('dialog', { name: 'Reminder confirmation' })).getByRole(
        'button',
        { name: 'Confirm' },
      ),
    );
    expect(await screen.findAllByText(pastReminderMessage)).not.toHaveLength(0);
    expect(api.to(`POST ${listPath}`)).toHaveLength(1);
  });
});

describe('Edit Appointment', () => {
  it('keeps an alert the appointment already had once its time has passed', async () => {
    // Half an hour away: its one-hour alert passed (and was sent) half an hour ago.
    const at = dayjs().add(30, 'minute').second(0).millisecond(0);
    const alertTime = at.unix() - 3600;
    const saved: Appointment = {
      id: '3b2e8c40-9d63-4e30-9c74-5d9f4ab13c23',
      appointment_date: at.toISOString(),
      time_zone: 'UTC',
      note: 'Check-up',
      email_alert: true,
      sms_alert: false,
      push_alert: false,
      alert_before: [{ alert_time: alertTime }],
    };
    sessionStore.save({ access: 'access-1', refresh: 'refresh-1' });
    const api = stubFetch({
      'GET /api/account/': () => json(testAccount),
      [`GET ${appointmentPaths.one(saved.id)}`]: () => json(saved),
      [`PUT ${appointmentPaths.one(saved.id)}`]: () => json(saved),
      [`GET ${upcomingPath}`]: () => json([]),
    });
    const { user } = renderRoute(`/appointments/${saved.id}/edit`);

    const hourBefore = await screen.findByRole('checkbox', { name: '1 hour before' });
    expect(hourBefore).toBeChecked();
    expect(hourBefore).toBeEnabled();
    expect(hourBefore).toHaveAccessibleDescription(reminderChoiceNotes.kept);
    expect(choice('1 day before')).toBeDisabled();

    await user.click(screen.getByRole('button', { name: 'Save' }));
    await user.click(
      within(await screen.findByRole('dialog', { name: 'Reminder confirmation' })).getByRole(
        'button',
        { name: 'Confirm' },
      ),
    );
    await screen.findByRole('heading', { name: 'Appointments Remind & History', level: 1 });
    const [put] = api.to(`PUT ${appointmentPaths.one(saved.id)}`);
    expect((put?.body as AppointmentRequest).alert_before).toEqual([alertTime]);
  });
});
