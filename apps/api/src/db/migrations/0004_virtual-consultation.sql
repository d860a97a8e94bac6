CREATE TYPE "public"."reservation_status" AS ENUM('booked', 'cancelled');--> statement-breakpoint
CREATE TABLE "complaint_images" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"complaint_id" uuid NOT NULL,
	"position" integer NOT NULL,
	"blob_key" text NOT NULL,
	"content_type" text NOT NULL,
	"file_name" text NOT NULL,
	CONSTRAINT "complaint_images_blob_key_unique" UNIQUE("blob_key")
);
--> statement-breakpoint
CREATE TABLE "complaints" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"reservation_id" uuid NOT NULL,
	"condition" text NOT NULL,
	"summary" text NOT NULL,
	"return_visit" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "complaints_reservation_id_unique" UNIQUE("reservation_id")
);
--> statement-breakpoint
CREATE TABLE "consultation_forms" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"title" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "doctor_availability" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"doctor_id" uuid NOT NULL,
	"weekday" integer NOT NULL,
	"start_minute" integer NOT NULL,
	"end_minute" integer NOT NULL,
	CONSTRAINT "doctor_availability_weekday_check" CHECK ("doctor_availability"."weekday" between 1 and 7),
	CONSTRAINT "doctor_availability_minutes_check" CHECK ("doctor_availability"."start_minute" >= 0 and "doctor_availability"."end_minute" <= 1440 and "doctor_availability"."start_minute" < "doctor_availability"."end_minute")
);
--> statement-breakpoint
CREATE TABLE "doctors" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"time_zone" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "doctors_name_unique" UNIQUE("name")
);
--> statement-breakpoint
CREATE TABLE "form_questions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"form_id" uuid NOT NULL,
	"position" integer NOT NULL,
	"label" text NOT NULL,
	"archived_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "reservation_answers" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"reservation_id" uuid NOT NULL,
	"question_id" uuid NOT NULL,
	"question_label" text NOT NULL,
	"question_order" integer NOT NULL,
	"answer" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "reservations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"doctor_id" uuid NOT NULL,
	"time_zone" text NOT NULL,
	"reservation_time" timestamp with time zone NOT NULL,
	"status" "reservation_status" DEFAULT 'booked' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"cancelled_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "complaint_images" ADD CONSTRAINT "complaint_images_complaint_id_complaints_id_fk" FOREIGN KEY ("complaint_id") REFERENCES "public"."complaints"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "complaints" ADD CONSTRAINT "complaints_reservation_id_reservations_id_fk" FOREIGN KEY ("reservation_id") REFERENCES "public"."reservations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "doctor_availability" ADD CONSTRAINT "doctor_availability_doctor_id_doctors_id_fk" FOREIGN KEY ("doctor_id") REFERENCES "public"."doctors"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "form_questions" ADD CONSTRAINT "form_questions_form_id_consultation_forms_id_fk" FOREIGN KEY ("form_id") REFERENCES "public"."consultation_forms"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reservation_answers" ADD CONSTRAINT "reservation_answers_reservation_id_reservations_id_fk" FOREIGN KEY ("reservation_id") REFERENCES "public"."reservations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reservation_answers" ADD CONSTRAINT "reservation_answers_question_id_form_questions_id_fk" FOREIGN KEY ("question_id") REFERENCES "public"."form_questions"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reservations" ADD CONSTRAINT "reservations_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reservations" ADD CONSTRAINT "reservations_doctor_id_doctors_id_fk" FOREIGN KEY ("doctor_id") REFERENCES "public"."doctors"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "complaint_images_complaint_id_idx" ON "complaint_images" USING btree ("complaint_id");--> statement-breakpoint
CREATE INDEX "doctor_availability_doctor_id_idx" ON "doctor_availability" USING btree ("doctor_id");--> statement-breakpoint
CREATE INDEX "form_questions_form_id_idx" ON "form_questions" USING btree ("form_id");--> statement-breakpoint
CREATE INDEX "reservation_answers_reservation_id_idx" ON "reservation_answers" USING btree ("reservation_id");--> statement-breakpoint
CREATE UNIQUE INDEX "reservations_doctor_slot_booked_key" ON "reservations" USING btree ("doctor_id","reservation_time") WHERE "reservations"."status" = 'booked';--> statement-breakpoint
CREATE INDEX "reservations_user_time_idx" ON "reservations" USING btree ("user_id","reservation_time");