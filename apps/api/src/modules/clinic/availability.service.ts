import {
  clockTimeMinutes,
  minutesClockTime,
  weekdays,
  type Availability,
  type AvailabilityRequest,
} from '@dental/contracts';
import { Forbidden, NotFound } from '#api/domain-errors';
import type { PractitionerRepository, StoredAvailability } from './practitioners.repository';
import { practitionerNotFoundMessage } from './practitioners.service';

export const notYourHoursMessage = 'You can change only your own hours.';

/** Who asks: an admin keeps anyone's hours, a practitioner their own. */
export interface HoursKeeper {
  role: 'practitioner' | 'clinic_admin';
  practitionerId: string | null;
}

function toAvailability(stored: StoredAvailability): Availability {
  return {
    timezone: stored.timeZone,
    slot_minutes: stored.slotMinutes,
    weekly: stored.windows.map((window) => ({
      weekday: weekdays[window.weekday - 1] ?? 'mon',
      from: minutesClockTime(window.startMinute),
      to: minutesClockTime(window.endMinute),
    })),
    time_off: stored.timeOff.map((range) => ({ from: range.fromDate, to: range.toDate })),
  };
}

/**
 * A practitioner's hours: weekly windows in their own zone, slot length and days off. The
 * patients' slots are cut from these rows on every request, so a change shows at once.
 */
export class AvailabilityService {
  constructor(private readonly repository: PractitionerRepository) {}

  /** Any staff member may read anyone's hours: patients see the slots cut from them anyway. */
  async get(practitionerId: string): Promise<Availability> {
    const stored = await this.repository.availability(practitionerId);
    if (stored === undefined) throw new NotFound(practitionerNotFoundMessage);
    return toAvailability(stored);
  }

  /** Replaces the hours; 403 for a practitioner changing another's (the console lists every
   *  practitioner to all staff, so a 404 would hide nothing). */
  async put(
    keeper: HoursKeeper,
    practitionerId: string,
    request: AvailabilityRequest,
  ): Promise<Availability> {
    if (keeper.role !== 'clinic_admin' && keeper.practitionerId !== practitionerId) {
      throw new Forbidden(notYourHoursMessage);
    }
    const stored: StoredAvailability = {
      timeZone: request.timezone,
      slotMinutes: request.slot_minutes,
      windows: request.weekly.map((window) => ({
        weekday: weekdays.indexOf(window.weekday) + 1,
        startMinute: clockTimeMinutes(window.from),
        endMinute: clockTimeMinutes(window.to),
      })),
      timeOff: request.time_off.map((range) => ({ fromDate: range.from, toDate: range.to })),
    };
    if (!(await this.repository.replaceAvailability(practitionerId, stored))) {
      throw new NotFound(practitionerNotFoundMessage);
    }
    return this.get(practitionerId);
  }
}
