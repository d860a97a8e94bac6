CREATE TYPE "public"."user_role" AS ENUM('member', 'practitioner', 'clinic_admin');--> statement-breakpoint
CREATE TABLE "doctor_time_off" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"doctor_id" uuid NOT NULL,
	"from_date" date NOT NULL,
	"to_date" date NOT NULL,
	CONSTRAINT "doctor_time_off_order_check" CHECK ("doctor_time_off"."from_date" <= "doctor_time_off"."to_date")
);
--> statement-breakpoint
CREATE TABLE "care_team_access" (
	"member_id" uuid PRIMARY KEY NOT NULL,
	"scope" text NOT NULL,
	"granted_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "care_team_shared_items" (
	"member_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"item_id" uuid NOT NULL,
	CONSTRAINT "care_team_shared_items_member_id_kind_item_id_pk" PRIMARY KEY("member_id","kind","item_id")
);
--> statement-breakpoint
CREATE TABLE "staff_invitations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"email" text NOT NULL,
	"name" text NOT NULL,
	"role" "user_role" NOT NULL,
	"token_hash" text NOT NULL,
	"invited_by" uuid,
	"created_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"accepted_at" timestamp with time zone,
	"user_id" uuid,
	CONSTRAINT "staff_invitations_token_hash_unique" UNIQUE("token_hash")
);
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "role" "user_role" DEFAULT 'member' NOT NULL;--> statement-breakpoint
ALTER TABLE "doctors" ADD COLUMN "slot_minutes" integer DEFAULT 30 NOT NULL;--> statement-breakpoint
ALTER TABLE "doctors" ADD COLUMN "user_id" uuid;--> statement-breakpoint
ALTER TABLE "doctors" ADD COLUMN "bio" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "doctors" ADD COLUMN "photo_blob_key" text;--> statement-breakpoint
ALTER TABLE "doctors" ADD COLUMN "photo_content_type" text;--> statement-breakpoint
ALTER TABLE "doctors" ADD COLUMN "removed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "doctor_time_off" ADD CONSTRAINT "doctor_time_off_doctor_id_doctors_id_fk" FOREIGN KEY ("doctor_id") REFERENCES "public"."doctors"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "care_team_access" ADD CONSTRAINT "care_team_access_member_id_users_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "care_team_shared_items" ADD CONSTRAINT "care_team_shared_items_member_id_care_team_access_member_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."care_team_access"("member_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "staff_invitations" ADD CONSTRAINT "staff_invitations_invited_by_users_id_fk" FOREIGN KEY ("invited_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "staff_invitations" ADD CONSTRAINT "staff_invitations_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "doctor_time_off_doctor_id_idx" ON "doctor_time_off" USING btree ("doctor_id");--> statement-breakpoint
CREATE INDEX "staff_invitations_email_lower_idx" ON "staff_invitations" USING btree (lower("email"));--> statement-breakpoint
ALTER TABLE "doctors" ADD CONSTRAINT "doctors_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "doctors_user_id_key" ON "doctors" USING btree ("user_id");--> statement-breakpoint
ALTER TABLE "doctors" ADD CONSTRAINT "doctors_slot_minutes_check" CHECK ("doctors"."slot_minutes" between 5 and 240);