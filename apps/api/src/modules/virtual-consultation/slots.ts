/** One weekly window in the doctor's zone: ISO weekday (1 = Monday), minutes after midnight. */
export interface WeeklyWindow {
  weekday: number;
  startMinute: number;
  endMinute: number;
}

/** Whole days off in the doctor's zone, 'YYYY-MM-DD' from and to, both included. */
export interface TimeOff {
  fromDate: string;
  toDate: string;
}

/** What a doctor's slots are cut from: weekly windows in their zone, slot length and time off. */
export interface Schedule {
  timeZone: string;
  slotMinutes: number;
  windows: readonly WeeklyWindow[];
  timeOff: readonly TimeOff[];
}

interface LocalParts {
  year: number;
  month: number;
  day: number;
  /** Minutes after local midnight. */
  minute: number;
  second: number;
}

const dayMs = 24 * 60 * 60 * 1000;
const halfDayMs = dayMs / 2;

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (formatter === undefined) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

/** The wall-clock reading of an instant in a time zone. */
export function localParts(instant: Date, timeZone: string): LocalParts {
  const parts: Record<string, number> = {};
  for (const part of formatterFor(timeZone).formatToParts(instant)) {
    if (part.type !== 'literal') parts[part.type] = Number(part.value);
  }
  const value = (name: string) => parts[name] ?? 0;
  return {
    year: value('year'),
    month: value('month'),
    day: value('day'),
    minute: value('hour') * 60 + value('minute'),
    second: value('second'),
  };
}

/** ISO weekday (1 = Monday … 7 = Sunday) of a calendar date. */
function isoWeekday(year: number, month: number, day: number): number {
  const sundayFirst = new Date(Date.UTC(year, month - 1, day)).getUTCDay();
  return sundayFirst === 0 ? 7 : sundayFirst;
}

/** Milliseconds the zone is ahead of UTC at that instant. */
function offsetAt(instantMs: number, timeZone: string): number {
  const local = localParts(new Date(instantMs), timeZone);
  const asUtc = Date.UTC(local.year, local.month - 1, local.day, 0, local.minute, local.second);
  return asUtc - Math.floor(instantMs / 1000) * 1000;
}

/**
 * The instant a wall-clock time in a zone names, or null when that time does not exist there
 * (skipped by a daylight-saving change). A repeated time resolves to its first occurrence.
 */
export function zonedTimeToInstant(
  date: { year: number; month: number; day: number },
  minute: number,
  timeZone: string,
): Date | null {
  const wall = Date.UTC(date.year, date.month - 1, date.day, 0, minute);
  // The zone's offsets half a day either side cover both readings around a change.
  const candidates = [
    ...new Set([-halfDayMs, 0, halfDayMs].map((d) => wall - offsetAt(wall + d, timeZone))),
  ];
  candidates.sort((a, b) => a - b);
  for (const candidate of candidates) {
    const back = localParts(new Date(candidate), timeZone);
    if (
      back.year === date.year &&
      back.month === date.month &&
      back.day === date.day &&
      back.minute === minute
    ) {
      return new Date(candidate);
    }
  }
  return null;
}

const pad = (value: number) => String(value).padStart(2, '0');

/** 'YYYY-MM-DD' of a calendar date. */
const isoDate = (date: { year: number; month: number; day: number }) =>
  `${String(date.year)}-${pad(date.month)}-${pad(date.day)}`;

/** True when the local date falls in one of the ranges of time off. */
function isDayOff(timeOff: readonly TimeOff[], date: { year: number; month: number; day: number }) {
  const day = isoDate(date);
  return timeOff.some((range) => range.fromDate <= day && day <= range.toDate);
}

/**
 * Every slot start of the weekly windows that falls in [from, to), sorted, as instants. A slot
 * fits wholly inside its window; local times skipped by daylight saving and days off are not
 * offered.
 */
export function slotsBetween(schedule: Schedule, from: Date, to: Date): Date[] {
  const { windows, timeZone, slotMinutes } = schedule;
  const found = new Map<number, Date>();
  // Local calendar days that can overlap [from, to): one day either side covers every offset.
  for (let dayStart = from.getTime() - dayMs; dayStart < to.getTime() + dayMs; dayStart += dayMs) {
    const { year, month, day } = localParts(new Date(dayStart), timeZone);
    if (isDayOff(schedule.timeOff, { year, month, day })) continue;
    const weekday = isoWeekday(year, month, day);
    for (const window of windows) {
      if (window.weekday !== weekday) continue;
      for (let m = window.startMinute; m + slotMinutes <= window.endMinute; m += slotMinutes) {
        const start = zonedTimeToInstant({ year, month, day }, m, timeZone);
        if (start !== null && start >= from && start < to) found.set(start.getTime(), start);
      }
    }
  }
  return [...found.values()].sort((a, b) => a.getTime() - b.getTime());
}

/** True when the instant is the start of one of the doctor's weekly slots, not on a day off. */
export function isOfferedSlot(schedule: Schedule, instant: Date): boolean {
  const { windows, timeZone, slotMinutes } = schedule;
  if (instant.getTime() % 60_000 !== 0) return false;
  const local = localParts(instant, timeZone);
  if (isDayOff(schedule.timeOff, local)) return false;
  const weekday = isoWeekday(local.year, local.month, local.day);
  const exact = zonedTimeToInstant(local, local.minute, timeZone);
  if (exact?.getTime() !== instant.getTime()) return false;
  return windows.some(
    (window) =>
      window.weekday === weekday &&
      local.minute >= window.startMinute &&
      local.minute + slotMinutes <= window.endMinute &&
      (local.minute - window.startMinute) % slotMinutes === 0,
  );
}

/** 'YYYY-MM-DD HH:mm' of an instant in a zone, for e-mails and the clinic command. */
export function formatInZone(instant: Date, timeZone: string): string {
  const local = localParts(instant, timeZone);
  return `${isoDate(local)} ${pad(Math.floor(local.minute / 60))}:${pad(local.minute % 60)}`;
}

/** Parses 'HH:mm' (00:00–24:00) into minutes after midnight; null when malformed. */
export function parseClockTime(value: string): number | null {
  const match = /^(\d{2}):(\d{2})$/.exec(value);
  if (match === null) return null;
  const hours = Number(match[1]);
  const minutes = Number(match[2]);
  if (minutes > 59 || hours > 24 || (hours === 24 && minutes !== 0)) return null;
  return hours * 60 + minutes;
}
