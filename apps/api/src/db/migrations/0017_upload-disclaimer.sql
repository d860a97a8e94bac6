ALTER TABLE "users" ADD COLUMN "upload_disclaimer_accepted_at" timestamp with time zone;
