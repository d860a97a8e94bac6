import ICAL from 'ical.js';

/** What a test checks of one calendar event. */
export interface IcsEvent {
  start: string;
  summary: string;
  description: string | null;
  location: string | null;
  /** Each alarm's trigger in seconds relative to the start (negative: before), earliest first. */
  alarms: number[];
}

/**
 * The events of an .ics text, read back with ical.js, a parser independent of the library that
 * wrote it. Shared by the API tests and the browser journeys (e2e/calendar.spec.ts).
 */
export function icsEvents(text: string): IcsEvent[] {
  const calendar = new ICAL.Component(ICAL.parse(text) as unknown[]);
  return calendar.getAllSubcomponents('vevent').map((component) => {
    const event = new ICAL.Event(component);
    return {
      start: event.startDate.toJSDate().toISOString(),
      summary: event.summary,
      description: event.description,
      location: event.location,
      alarms: component
        .getAllSubcomponents('valarm')
        .map((alarm) => (alarm.getFirstPropertyValue('trigger') as ICAL.Duration).toSeconds())
        .sort((a, b) => a - b),
    };
  });
}
