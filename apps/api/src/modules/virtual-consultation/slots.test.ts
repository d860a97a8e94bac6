import { describe, expect, it } from 'vitest';
import {
  formatInZone,
  isOfferedSlot,
  parseClockTime,
  slotsBetween,
  zonedTimeToInstant,
  type Schedule,
  type WeeklyWindow,
} from './slots';

/** Half-hour slots with no time off, as every doctor had before slot lengths and time off. */
const schedule = (
  windows: WeeklyWindow[],
  timeZone: string,
  more: Partial<Schedule> = {},
): Schedule => ({ windows, timeZone, slotMinutes: 30, timeOff: [], ...more });

const iso = (dates: Date[]) => dates.map((date) => date.toISOString());

describe('zonedTimeToInstant', () => {
  it.each([
    ['Europe/Paris', { year: 2026, month: 1, day: 15 }, 9 * 60, '2026-01-15T08:00:00.000Z'],
    ['Europe/Paris', { year: 2026, month: 7, day: 15 }, 9 * 60, '2026-07-15T07:00:00.000Z'],
    ['America/New_York', { year: 2026, month: 3, day: 8 }, 3 * 60, '2026-03-08T07:00:00.000Z'],
    ['Asia/Kolkata', { year: 2026, month: 5, day: 1 }, 0, '2026-04-30T18:30:00.000Z'],
    ['UTC', { year: 2026, month: 12, day: 31 }, 23 * 60 + 30, '2026-12-31T23:30:00.000Z'],
  ])('%s %o minute %i is %s', (zone, date, minute, expected) => {
    expect(zonedTimeToInstant(date, minute, zone)?.toISOString()).toBe(expected);
  });

  it('has no instant for a wall time skipped by daylight saving', () => {
    // New York skips 02:00–03:00 on 2026-03-08.
    expect(
      zonedTimeToInstant({ year: 2026, month: 3, day: 8 }, 2 * 60 + 30, 'America/New_York'),
    ).toBeNull();
  });

  it('takes the first of a wall time repeated when daylight saving ends', () => {
    // Paris repeats 02:00–03:00 on 2026-10-25: first in summer time (UTC+2).
    expect(
      zonedTimeToInstant(
        { year: 2026, month: 10, day: 25 },
        2 * 60 + 30,
        'Europe/Paris',
      )?.toISOString(),
    ).toBe('2026-10-25T00:30:00.000Z');
  });
});

describe('slotsBetween', () => {
  const mondayMorning: WeeklyWindow[] = [
    { weekday: 1, startMinute: 9 * 60, endMinute: 10 * 60 + 15 },
  ];

  it('cuts a weekly window into whole half hours in the doctor’s zone', () => {
    // 2026-03-02 is a Monday; Tokyo is UTC+9.
    const slots = slotsBetween(
      schedule(mondayMorning, 'Asia/Tokyo'),
      new Date('2026-03-01T00:00:00Z'),
      new Date('2026-03-03T00:00:00Z'),
    );
    expect(iso(slots)).toEqual(['2026-03-02T00:00:00.000Z', '2026-03-02T00:30:00.000Z']);
  });

  it('keeps only slots inside [from, to) and across several weeks', () => {
    const slots = slotsBetween(
      schedule(mondayMorning, 'UTC'),
      new Date('2026-03-02T09:30:00Z'),
      new Date('2026-03-09T09:30:00Z'),
    );
    expect(iso(slots)).toEqual(['2026-03-02T09:30:00.000Z', '2026-03-09T09:00:00.000Z']);
  });

  it('skips a slot whose local time does not exist on a daylight-saving day', () => {
    const sundayNight: WeeklyWindow[] = [{ weekday: 7, startMinute: 2 * 60, endMinute: 3 * 60 }];
    const slots = slotsBetween(
      schedule(sundayNight, 'America/New_York'),
      new Date('2026-03-07T00:00:00Z'),
      new Date('2026-03-16T00:00:00Z'),
    );
    // 2026-03-08 has no 02:00–03:00; the next Sunday has both slots.
    expect(iso(slots)).toEqual(['2026-03-15T06:00:00.000Z', '2026-03-15T06:30:00.000Z']);
  });

  it('cuts the window into the doctor’s own slot length', () => {
    const slots = slotsBetween(
      schedule(mondayMorning, 'UTC', { slotMinutes: 20 }),
      new Date('2026-03-02T00:00:00Z'),
      new Date('2026-03-03T00:00:00Z'),
    );
    expect(iso(slots)).toEqual([
      '2026-03-02T09:00:00.000Z',
      '2026-03-02T09:20:00.000Z',
      '2026-03-02T09:40:00.000Z',
    ]);
  });

  it('offers nothing on days off, counted in the doctor’s zone', () => {
    // Monday 2026-03-02 in Tokyo is off; the Monday after is not.
    const slots = slotsBetween(
      schedule(mondayMorning, 'Asia/Tokyo', {
        timeOff: [{ fromDate: '2026-02-27', toDate: '2026-03-02' }],
      }),
      new Date('2026-03-01T00:00:00Z'),
      new Date('2026-03-10T00:00:00Z'),
    );
    expect(iso(slots)).toEqual(['2026-03-09T00:00:00.000Z', '2026-03-09T00:30:00.000Z']);
  });
});

describe('isOfferedSlot', () => {
  const windows: WeeklyWindow[] = [{ weekday: 2, startMinute: 14 * 60, endMinute: 16 * 60 }];
  it.each([
    ['2026-03-03T13:00:00Z', true],
    ['2026-03-03T14:30:00Z', true],
    ['2026-03-03T15:00:00Z', false],
    ['2026-03-03T13:15:00Z', false],
    ['2026-03-03T13:00:30Z', false],
    ['2026-03-04T13:00:00Z', false],
  ])('Tuesday 14:00–16:00 in Madrid (UTC+1): %s → %s', (instant, expected) => {
    expect(isOfferedSlot(schedule(windows, 'Europe/Madrid'), new Date(instant))).toBe(expected);
  });

  it('follows the slot length and refuses a day off', () => {
    const quarterHours = schedule(windows, 'Europe/Madrid', { slotMinutes: 45 });
    expect(isOfferedSlot(quarterHours, new Date('2026-03-03T13:45:00Z'))).toBe(true);
    expect(isOfferedSlot(quarterHours, new Date('2026-03-03T14:30:00Z'))).toBe(false);
    const off = schedule(windows, 'Europe/Madrid', {
      timeOff: [{ fromDate: '2026-03-03', toDate: '2026-03-03' }],
    });
    expect(isOfferedSlot(off, new Date('2026-03-03T13:00:00Z'))).toBe(false);
  });
});

describe('formatting and parsing', () => {
  it('formats an instant as YYYY-MM-DD HH:mm in a zone', () => {
    expect(formatInZone(new Date('2026-03-02T23:45:00Z'), 'Asia/Tokyo')).toBe('2026-03-03 08:45');
  });

  it.each([
    ['09:30', 570],
    ['00:00', 0],
    ['24:00', 1440],
    ['24:30', null],
    ['9:30', null],
    ['12:60', null],
  ])('parses %s as %s', (text, minutes) => {
    expect(parseClockTime(text)).toBe(minutes);
  });
});
