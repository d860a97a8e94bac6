import { asc, eq, isNull, and } from 'drizzle-orm';
import type { Database } from '#api/db/client';
import { isUniqueViolation } from '#api/db/errors';
import {
  doctorAvailability,
  doctorTimeOff,
  doctors,
  type DoctorRow,
  type DoctorTimeOffRow,
} from '#api/db/schema';

/** One weekly window in the doctor's zone: ISO weekday (1 = Monday), minutes after midnight. */
export interface HoursWindow {
  weekday: number;
  startMinute: number;
  endMinute: number;
}

/** A doctor's hours as stored: zone, slot length, weekly windows and whole days off. */
export interface StoredAvailability {
  timeZone: string;
  slotMinutes: number;
  windows: HoursWindow[];
  timeOff: Pick<DoctorTimeOffRow, 'fromDate' | 'toDate'>[];
}

export interface PractitionerChange {
  name?: string;
  bio?: string;
  /** A new portrait, or null to remove it; absent keeps the current one. */
  photo?: { blobKey: string; contentType: string } | null;
}

/** The doctors as the clinic console edits them: profile, removal and hours. */
export class PractitionerRepository {
  constructor(private readonly db: Database) {}

  /** Every doctor, removed ones too, by name. */
  list(): Promise<DoctorRow[]> {
    return this.db.select().from(doctors).orderBy(asc(doctors.name));
  }

  async find(id: string): Promise<DoctorRow | undefined> {
    const [row] = await this.db.select().from(doctors).where(eq(doctors.id, id));
    return row;
  }

  /** The changed doctor; 'name-taken' when another doctor has the name, undefined when unknown. */
  async update(
    id: string,
    change: PractitionerChange,
  ): Promise<DoctorRow | 'name-taken' | undefined> {
    const photo =
      change.photo === undefined
        ? {}
        : {
            photoBlobKey: change.photo?.blobKey ?? null,
            photoContentType: change.photo?.contentType ?? null,
          };
    const values = { name: change.name, bio: change.bio, ...photo };
    if (Object.values(values).every((value) => value === undefined)) return this.find(id);
    try {
      const [row] = await this.db.update(doctors).set(values).where(eq(doctors.id, id)).returning();
      return row;
    } catch (error) {
      if (isUniqueViolation(error)) return 'name-taken';
      throw error;
    }
  }

  /** Marks the doctor removed (once); false when unknown. */
  async remove(id: string, now: Date): Promise<boolean> {
    await this.db
      .update(doctors)
      .set({ removedAt: now })
      .where(and(eq(doctors.id, id), isNull(doctors.removedAt)));
    return (await this.find(id)) !== undefined;
  }

  async availability(id: string): Promise<StoredAvailability | undefined> {
    const doctor = await this.find(id);
    if (doctor === undefined) return undefined;
    const windows = await this.db
      .select({
        weekday: doctorAvailability.weekday,
        startMinute: doctorAvailability.startMinute,
        endMinute: doctorAvailability.endMinute,
      })
      .from(doctorAvailability)
      .where(eq(doctorAvailability.doctorId, id))
      .orderBy(asc(doctorAvailability.weekday), asc(doctorAvailability.startMinute));
    const timeOff = await this.db
      .select({ fromDate: doctorTimeOff.fromDate, toDate: doctorTimeOff.toDate })
      .from(doctorTimeOff)
      .where(eq(doctorTimeOff.doctorId, id))
      .orderBy(asc(doctorTimeOff.fromDate), asc(doctorTimeOff.toDate));
    return { timeZone: doctor.timeZone, slotMinutes: doctor.slotMinutes, windows, timeOff };
  }

  /** Replaces the doctor's hours in one transaction, so patients never see half of a change;
   *  false when the doctor is unknown. */
  replaceAvailability(id: string, hours: StoredAvailability): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      const updated = await tx
        .update(doctors)
        .set({ timeZone: hours.timeZone, slotMinutes: hours.slotMinutes })
        .where(eq(doctors.id, id))
        .returning({ id: doctors.id });
      if (updated.length === 0) return false;
      await tx.delete(doctorAvailability).where(eq(doctorAvailability.doctorId, id));
      await tx.delete(doctorTimeOff).where(eq(doctorTimeOff.doctorId, id));
      if (hours.windows.length > 0) {
        await tx
          .insert(doctorAvailability)
          .values(hours.windows.map((window) => ({ doctorId: id, ...window })));
      }
      if (hours.timeOff.length > 0) {
        await tx
          .insert(doctorTimeOff)
          .values(hours.timeOff.map((range) => ({ doctorId: id, ...range })));
      }
      return true;
    });
  }
}
