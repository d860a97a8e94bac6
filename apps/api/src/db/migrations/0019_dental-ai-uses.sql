CREATE TABLE "dental_ai_uses" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "dental_ai_uses" ADD CONSTRAINT "dental_ai_uses_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "dental_ai_uses_user_id_created_at_idx" ON "dental_ai_uses" USING btree ("user_id","created_at");--> statement-breakpoint
INSERT INTO "dental_ai_uses" ("user_id", "created_at") SELECT "user_id", "created_at" FROM "dental_ai_results";
