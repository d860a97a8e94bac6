ALTER TABLE "oral_photos" ADD COLUMN "teeth" integer[] DEFAULT '{}'::integer[] NOT NULL;--> statement-breakpoint
CREATE INDEX "oral_photos_teeth_idx" ON "oral_photos" USING gin ("teeth");
