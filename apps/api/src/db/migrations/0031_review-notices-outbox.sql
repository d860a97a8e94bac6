DROP INDEX "photo_reviews_notice_unsent_idx";--> statement-breakpoint
ALTER TABLE "message_notices" ALTER COLUMN "message_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "message_notices" ADD COLUMN "review_id" uuid;--> statement-breakpoint
ALTER TABLE "message_notices" ADD CONSTRAINT "message_notices_review_id_photo_reviews_id_fk" FOREIGN KEY ("review_id") REFERENCES "public"."photo_reviews"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "message_notices_review_channel_key" ON "message_notices" USING btree ("review_id","channel");--> statement-breakpoint
-- Answers whose notice was not sent yet keep it: a pending e-mail row the sweep queues.
INSERT INTO "message_notices" ("review_id", "channel", "created_at") SELECT "id", 'email', "answered_at" FROM "photo_reviews" WHERE "status" = 'answered' AND "notice_sent_at" IS NULL;--> statement-breakpoint
ALTER TABLE "photo_reviews" DROP COLUMN "notice_queued_at";--> statement-breakpoint
ALTER TABLE "photo_reviews" DROP COLUMN "notice_sent_at";--> statement-breakpoint
ALTER TABLE "message_notices" ADD CONSTRAINT "message_notices_one_subject" CHECK (num_nonnulls("message_notices"."message_id", "message_notices"."review_id") = 1);