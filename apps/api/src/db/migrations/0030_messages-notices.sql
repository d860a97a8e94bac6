CREATE TABLE "message_notices" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"message_id" uuid NOT NULL,
	"channel" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"queued_at" timestamp with time zone,
	"attempts" integer DEFAULT 0 NOT NULL,
	"sent_at" timestamp with time zone,
	"outcome" text,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "message_notices" ADD CONSTRAINT "message_notices_message_id_messages_id_fk" FOREIGN KEY ("message_id") REFERENCES "public"."messages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "message_notices_message_channel_key" ON "message_notices" USING btree ("message_id","channel");--> statement-breakpoint
CREATE INDEX "message_notices_unqueued_idx" ON "message_notices" USING btree ("created_at") WHERE "message_notices"."status" = 'pending' and "message_notices"."queued_at" is null;