CREATE TABLE "reports" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"status" text DEFAULT 'queued' NOT NULL,
	"progress" real DEFAULT 0 NOT NULL,
	"period_from" date NOT NULL,
	"period_to" date NOT NULL,
	"locale" text NOT NULL,
	"blob_key" text,
	"size_bytes" integer,
	"created_at" timestamp with time zone NOT NULL,
	"finished_at" timestamp with time zone,
	"deleted_at" timestamp with time zone,
	CONSTRAINT "reports_blob_key_unique" UNIQUE("blob_key"),
	CONSTRAINT "reports_progress_check" CHECK ("reports"."progress" between 0 and 1),
	CONSTRAINT "reports_period_check" CHECK ("reports"."period_from" <= "reports"."period_to")
);
--> statement-breakpoint
ALTER TABLE "reports" ADD CONSTRAINT "reports_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "reports_user_id_created_at_idx" ON "reports" USING btree ("user_id","created_at");