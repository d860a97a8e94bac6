ALTER TABLE "photo_reviews" ADD COLUMN "notice_queued_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "photo_reviews" ADD COLUMN "notice_sent_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "photo_reviews_notice_unsent_idx" ON "photo_reviews" USING btree ("answered_at") WHERE "photo_reviews"."status" = 'answered' and "photo_reviews"."notice_sent_at" is null;