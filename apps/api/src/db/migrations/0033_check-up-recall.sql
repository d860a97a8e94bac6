CREATE TABLE "check_up_recall_notices" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"due_at" timestamp with time zone NOT NULL,
	"channel" "reminder_channel" NOT NULL,
	"status" "reminder_status" DEFAULT 'pending' NOT NULL,
	"queued_at" timestamp with time zone,
	"attempts" integer DEFAULT 0 NOT NULL,
	"sent_at" timestamp with time zone,
	"outcome" text,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "check_up_recalls" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"interval_months" integer NOT NULL,
	"email" boolean NOT NULL,
	"sms" boolean NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "check_up_recall_notices" ADD CONSTRAINT "check_up_recall_notices_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "check_up_recalls" ADD CONSTRAINT "check_up_recalls_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "check_up_recall_notices_due_channel_key" ON "check_up_recall_notices" USING btree ("user_id","due_at","channel");--> statement-breakpoint
CREATE INDEX "check_up_recall_notices_unqueued_idx" ON "check_up_recall_notices" USING btree ("created_at") WHERE "check_up_recall_notices"."status" = 'pending' AND "check_up_recall_notices"."queued_at" IS NULL;--> statement-breakpoint
ALTER TABLE "check_up_recalls" ADD CONSTRAINT "check_up_recalls_interval" CHECK ("interval_months" IN (6, 12));