import ical, { ICalAlarmType, type ICalEventData } from 'ical-generator';
import {
  appointmentEventSummary,
  consultationAlarmMinutes,
  consultationEventSummary,
  consultationHowText,
  slotMinutes,
} from '@dental/contracts';
import type { AppointmentRow } from '#api/db/schema';

export interface CalendarSettings {
  publicUrl: string;
  companyName: string;
  /** Where consultations take place; undefined: the doctor phones the member. */
  consultationJoinUrl: string | undefined;
}

/** What a calendar event of a consultation needs. */
export interface ConsultationEventSource {
  id: string;
  reservationTime: Date;
  doctorName: string;
}

/** An appointment has no end; an hour keeps it visible in a day view. */
const appointmentMinutes = 60;
const minuteMs = 60_000;

const uidHost = (settings: CalendarSettings) => new URL(settings.publicUrl).hostname;

/** A reminder the member chose, as an alarm the calendar app sounds at the same moment. */
const alarmBefore = (start: Date, alertTime: Date) => ({
  type: ICalAlarmType.display,
  trigger: Math.round((start.getTime() - alertTime.getTime()) / 1000),
  description: appointmentEventSummary,
});

/**
 * One appointment as an event; its alarms are the member's reminder times. `withNote` adds the
 * member's note, which only the signed-in member's own download carries (never the feed).
 */
export function appointmentEvent(
  row: AppointmentRow,
  settings: CalendarSettings,
  withNote: boolean,
): ICalEventData {
  const url = `${settings.publicUrl}/appointments/${row.id}/edit`;
  return {
    id: `appointment-${row.id}@${uidHost(settings)}`,
    start: row.appointmentDate,
    end: new Date(row.appointmentDate.getTime() + appointmentMinutes * minuteMs),
    summary: appointmentEventSummary,
    description: withNote && row.note !== '' ? `${row.note}\n\n${url}` : url,
    url,
    alarms: [...row.alertTimes]
      .sort((a, b) => a.getTime() - b.getTime())
      .map((alertTime) => alarmBefore(row.appointmentDate, alertTime)),
  };
}

/** One booked consultation: how it takes place and, with `withDoctor`, the doctor's name. */
export function consultationEvent(
  source: ConsultationEventSource,
  settings: CalendarSettings,
  withDoctor: boolean,
): ICalEventData {
  const url = `${settings.publicUrl}/virtual-consultation/reservation-record`;
  const how = consultationHowText(settings.consultationJoinUrl);
  return {
    id: `consultation-${source.id}@${uidHost(settings)}`,
    start: source.reservationTime,
    end: new Date(source.reservationTime.getTime() + slotMinutes * minuteMs),
    summary: withDoctor
      ? `${consultationEventSummary} with ${source.doctorName}`
      : consultationEventSummary,
    description: `${how}\n\n${url}`,
    location: settings.consultationJoinUrl ?? null,
    url,
    alarms: [
      {
        type: ICalAlarmType.display,
        trigger: consultationAlarmMinutes * 60,
        description: consultationEventSummary,
      },
    ],
  };
}

/** An RFC 5545 calendar of the events, stamped `now`. */
export function calendarText(
  events: readonly ICalEventData[],
  settings: CalendarSettings,
  now: Date,
): string {
  const calendar = ical({
    name: settings.companyName,
    prodId: { company: settings.companyName, product: 'Dental Companion', language: 'EN' },
  });
  for (const event of events) calendar.createEvent({ ...event, stamp: now });
  return calendar.toString();
}
