import { sql } from 'drizzle-orm';
import {
  check,
  date,
  index,
  integer,
  pgEnum,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { timestamptz } from './columns';
import { users } from './account';
import { dentalAiResults } from './dental-ai';

/** The doctors patients book: a practitioner's staff account (`userId`) or a row the clinic
 *  command made (docs/decisions/clinic-staff.md). */
export const doctors = pgTable(
  'doctors',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull().unique(),
    /** IANA zone the weekly availability and time off are written in. */
    timeZone: text('time_zone').notNull(),
    /** Length of one bookable slot. */
    slotMinutes: integer('slot_minutes').notNull().default(30),
    /** The practitioner's staff account; null for a doctor entered with the clinic command. */
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    /** Shown to patients choosing a doctor; edited by the clinic admin. */
    bio: text('bio').notNull().default(''),
    /** Blob-store key of the portrait the admin uploaded, if any. */
    photoBlobKey: text('photo_blob_key'),
    photoContentType: text('photo_content_type'),
    /** Set when an admin removes the doctor: no new bookings, past ones keep their name. */
    removedAt: timestamptz('removed_at'),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('doctors_user_id_key').on(table.userId),
    check('doctors_slot_minutes_check', sql`${table.slotMinutes} between 5 and 240`),
  ],
);

/** Whole days off in the doctor's zone, `from` to `to` inclusive: no slots are offered then. */
export const doctorTimeOff = pgTable(
  'doctor_time_off',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    doctorId: uuid('doctor_id')
      .notNull()
      .references(() => doctors.id, { onDelete: 'cascade' }),
    fromDate: date('from_date', { mode: 'string' }).notNull(),
    toDate: date('to_date', { mode: 'string' }).notNull(),
  },
  (table) => [
    index('doctor_time_off_doctor_id_idx').on(table.doctorId),
    check('doctor_time_off_order_check', sql`${table.fromDate} <= ${table.toDate}`),
  ],
);

/**
 * Weekly availability in the doctor's own time zone: on `weekday` (ISO, 1 = Monday) from
 * `startMinute` to `endMinute` after local midnight, cut into fixed slots
 * (docs/decisions/consultation-booking.md).
 */
export const doctorAvailability = pgTable(
  'doctor_availability',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    doctorId: uuid('doctor_id')
      .notNull()
      .references(() => doctors.id, { onDelete: 'cascade' }),
    weekday: integer('weekday').notNull(),
    startMinute: integer('start_minute').notNull(),
    endMinute: integer('end_minute').notNull(),
  },
  (table) => [
    index('doctor_availability_doctor_id_idx').on(table.doctorId),
    check('doctor_availability_weekday_check', sql`${table.weekday} between 1 and 7`),
    check(
      'doctor_availability_minutes_check',
      sql`${table.startMinute} >= 0 and ${table.endMinute} <= 1440 and ${table.startMinute} < ${table.endMinute}`,
    ),
  ],
);

/** The consultation form; the newest one is the form patients answer. */
export const consultationForms = pgTable('consultation_forms', {
  id: uuid('id').primaryKey().defaultRandom(),
  title: text('title').notNull(),
  createdAt: timestamptz('created_at').notNull().defaultNow(),
});

/** Questions in form order; a removed question is archived so past answers keep their label. */
export const formQuestions = pgTable(
  'form_questions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    formId: uuid('form_id')
      .notNull()
      .references(() => consultationForms.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    label: text('label').notNull(),
    archivedAt: timestamptz('archived_at'),
  },
  (table) => [index('form_questions_form_id_idx').on(table.formId)],
);

export const reservationStatus = pgEnum('reservation_status', ['booked', 'cancelled']);

export const reservations = pgTable(
  'reservations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    doctorId: uuid('doctor_id')
      .notNull()
      .references(() => doctors.id, { onDelete: 'restrict' }),
    /** The patient's IANA zone at booking: the history cards show the time in it. */
    timeZone: text('time_zone').notNull(),
    reservationTime: timestamptz('reservation_time').notNull(),
    status: reservationStatus('status').notNull().default('booked'),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
    cancelledAt: timestamptz('cancelled_at'),
  },
  (table) => [
    // A slot is booked once; a cancelled reservation frees its slot for someone else.
    uniqueIndex('reservations_doctor_slot_booked_key')
      .on(table.doctorId, table.reservationTime)
      .where(sql`${table.status} = 'booked'`),
    index('reservations_user_time_idx').on(table.userId, table.reservationTime),
  ],
);

/** Answers keep the label and order they were asked with, so editing the form later does not
 *  rewrite what a patient answered. */
export const reservationAnswers = pgTable(
  'reservation_answers',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    reservationId: uuid('reservation_id')
      .notNull()
      .references(() => reservations.id, { onDelete: 'cascade' }),
    questionId: uuid('question_id')
      .notNull()
      .references(() => formQuestions.id, { onDelete: 'restrict' }),
    questionLabel: text('question_label').notNull(),
    questionOrder: integer('question_order').notNull(),
    answer: text('answer').notNull(),
  },
  (table) => [index('reservation_answers_reservation_id_idx').on(table.reservationId)],
);

/** Dental AI results the patient attached to a booking for the doctor to see
 *  (docs/decisions/consultation-dental-ai.md); gone with the booking or the result. */
export const reservationDentalAiResults = pgTable(
  'reservation_dental_ai_results',
  {
    reservationId: uuid('reservation_id')
      .notNull()
      .references(() => reservations.id, { onDelete: 'cascade' }),
    dentalAiResultId: uuid('dental_ai_result_id')
      .notNull()
      .references(() => dentalAiResults.id, { onDelete: 'cascade' }),
  },
  (table) => [
    primaryKey({ columns: [table.reservationId, table.dentalAiResultId] }),
    index('reservation_dental_ai_results_result_id_idx').on(table.dentalAiResultId),
  ],
);

/** The doctor summary of a past consultation (docs/product/consultation.md#reservation-details);
 *  one per reservation. */
export const complaints = pgTable('complaints', {
  id: uuid('id').primaryKey().defaultRandom(),
  reservationId: uuid('reservation_id')
    .notNull()
    .unique()
    .references(() => reservations.id, { onDelete: 'cascade' }),
  condition: text('condition').notNull(),
  summary: text('summary').notNull(),
  returnVisit: text('return_visit').notNull(),
  createdAt: timestamptz('created_at').notNull().defaultNow(),
  updatedAt: timestamptz('updated_at').notNull().defaultNow(),
});

/** Images the doctor attached to a summary, stored in the blob store. */
export const complaintImages = pgTable(
  'complaint_images',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    complaintId: uuid('complaint_id')
      .notNull()
      .references(() => complaints.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    blobKey: text('blob_key').notNull().unique(),
    contentType: text('content_type').notNull(),
    fileName: text('file_name').notNull(),
  },
  (table) => [index('complaint_images_complaint_id_idx').on(table.complaintId)],
);

export type DoctorRow = typeof doctors.$inferSelect;
export type DoctorTimeOffRow = typeof doctorTimeOff.$inferSelect;
export type FormQuestionRow = typeof formQuestions.$inferSelect;
export type ReservationRow = typeof reservations.$inferSelect;
export type ReservationAnswerRow = typeof reservationAnswers.$inferSelect;
export type ComplaintRow = typeof complaints.$inferSelect;
export type ComplaintImageRow = typeof complaintImages.$inferSelect;
