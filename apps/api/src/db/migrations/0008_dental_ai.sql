CREATE TABLE "dental_ai_results" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"dental_ai" text NOT NULL,
	"blob_key" text NOT NULL,
	"content_type" text NOT NULL,
	"image_width" integer NOT NULL,
	"image_height" integer NOT NULL,
	"detections" jsonb NOT NULL,
	"model_name" text NOT NULL,
	"model_version" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "dental_ai_results_blob_key_unique" UNIQUE("blob_key")
);
--> statement-breakpoint
ALTER TABLE "dental_ai_results" ADD CONSTRAINT "dental_ai_results_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "dental_ai_results_user_id_created_at_idx" ON "dental_ai_results" USING btree ("user_id","created_at");