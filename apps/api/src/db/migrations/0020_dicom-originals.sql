ALTER TABLE "oral_photos" ADD COLUMN "original_key" text;--> statement-breakpoint
ALTER TABLE "oral_photos" ADD COLUMN "original_size_bytes" integer;--> statement-breakpoint
ALTER TABLE "oral_photos" ADD CONSTRAINT "oral_photos_original_key_unique" UNIQUE("original_key");
