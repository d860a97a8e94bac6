ALTER TABLE "oral_photos" ADD COLUMN "capture_set_id" uuid;--> statement-breakpoint
ALTER TABLE "oral_photos" ADD COLUMN "capture_view" text;--> statement-breakpoint
CREATE UNIQUE INDEX "oral_photos_user_id_capture_set_view_idx" ON "oral_photos" USING btree ("user_id","capture_set_id","capture_view");--> statement-breakpoint
ALTER TABLE "oral_photos" ADD CONSTRAINT "oral_photos_capture_set_and_view" CHECK (("oral_photos"."capture_set_id" is null) = ("oral_photos"."capture_view" is null));