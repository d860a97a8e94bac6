ALTER TABLE "data_exports" ADD COLUMN "heartbeat_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "data_exports" ADD COLUMN "attempts" integer DEFAULT 0 NOT NULL;