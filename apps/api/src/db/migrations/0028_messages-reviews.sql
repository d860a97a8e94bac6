CREATE TABLE "message_attachments" (
	"message_id" uuid NOT NULL,
	"member_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"item_id" uuid NOT NULL,
	"position" integer NOT NULL,
	CONSTRAINT "message_attachments_message_id_kind_item_id_pk" PRIMARY KEY("message_id","kind","item_id")
);
--> statement-breakpoint
CREATE TABLE "message_threads" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"member_id" uuid NOT NULL,
	"subject" text NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"assigned_to" uuid,
	"created_at" timestamp with time zone NOT NULL,
	"last_message_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "messages" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"thread_id" uuid NOT NULL,
	"author_id" uuid,
	"author_role" text NOT NULL,
	"author_name" text NOT NULL,
	"body" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"member_read_at" timestamp with time zone,
	"staff_read_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "model_training_consents" (
	"member_id" uuid PRIMARY KEY NOT NULL,
	"granted_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "photo_review_items" (
	"review_id" uuid NOT NULL,
	"photo_id" uuid NOT NULL,
	"position" integer NOT NULL,
	CONSTRAINT "photo_review_items_review_id_photo_id_pk" PRIMARY KEY("review_id","photo_id")
);
--> statement-breakpoint
CREATE TABLE "photo_review_uses" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "photo_reviews" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"member_id" uuid NOT NULL,
	"dental_ai_result_id" uuid,
	"question" text NOT NULL,
	"status" text DEFAULT 'waiting' NOT NULL,
	"report" text,
	"findings" jsonb,
	"reviewer_id" uuid,
	"reviewer_name" text,
	"created_at" timestamp with time zone NOT NULL,
	"answered_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "message_attachments" ADD CONSTRAINT "message_attachments_message_id_messages_id_fk" FOREIGN KEY ("message_id") REFERENCES "public"."messages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "message_attachments" ADD CONSTRAINT "message_attachments_member_id_users_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "message_threads" ADD CONSTRAINT "message_threads_member_id_users_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "message_threads" ADD CONSTRAINT "message_threads_assigned_to_users_id_fk" FOREIGN KEY ("assigned_to") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "messages" ADD CONSTRAINT "messages_thread_id_message_threads_id_fk" FOREIGN KEY ("thread_id") REFERENCES "public"."message_threads"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "messages" ADD CONSTRAINT "messages_author_id_users_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "model_training_consents" ADD CONSTRAINT "model_training_consents_member_id_users_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "photo_review_items" ADD CONSTRAINT "photo_review_items_review_id_photo_reviews_id_fk" FOREIGN KEY ("review_id") REFERENCES "public"."photo_reviews"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "photo_review_uses" ADD CONSTRAINT "photo_review_uses_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "photo_reviews" ADD CONSTRAINT "photo_reviews_member_id_users_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "photo_reviews" ADD CONSTRAINT "photo_reviews_dental_ai_result_id_dental_ai_results_id_fk" FOREIGN KEY ("dental_ai_result_id") REFERENCES "public"."dental_ai_results"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "photo_reviews" ADD CONSTRAINT "photo_reviews_reviewer_id_users_id_fk" FOREIGN KEY ("reviewer_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "message_attachments_member_item_idx" ON "message_attachments" USING btree ("member_id","kind","item_id");--> statement-breakpoint
CREATE INDEX "message_threads_member_id_last_message_at_idx" ON "message_threads" USING btree ("member_id","last_message_at");--> statement-breakpoint
CREATE INDEX "message_threads_status_last_message_at_idx" ON "message_threads" USING btree ("status","last_message_at");--> statement-breakpoint
CREATE INDEX "messages_thread_id_created_at_idx" ON "messages" USING btree ("thread_id","created_at");--> statement-breakpoint
CREATE INDEX "messages_unread_by_member_idx" ON "messages" USING btree ("thread_id") WHERE "messages"."author_role" = 'staff' and "messages"."member_read_at" is null;--> statement-breakpoint
CREATE INDEX "messages_unread_by_staff_idx" ON "messages" USING btree ("thread_id") WHERE "messages"."author_role" = 'member' and "messages"."staff_read_at" is null;--> statement-breakpoint
CREATE INDEX "photo_review_items_photo_id_idx" ON "photo_review_items" USING btree ("photo_id");--> statement-breakpoint
CREATE INDEX "photo_review_uses_user_id_created_at_idx" ON "photo_review_uses" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "photo_reviews_member_id_created_at_idx" ON "photo_reviews" USING btree ("member_id","created_at");--> statement-breakpoint
CREATE INDEX "photo_reviews_status_created_at_idx" ON "photo_reviews" USING btree ("status","created_at");