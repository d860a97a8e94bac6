CREATE TABLE "share_links" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"token_hash" text NOT NULL,
	"label" text NOT NULL,
	"passcode_hash" text,
	"created_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"revoked_at" timestamp with time zone,
	"views" integer DEFAULT 0 NOT NULL,
	"last_viewed_at" timestamp with time zone,
	CONSTRAINT "share_links_token_hash_unique" UNIQUE("token_hash")
);
--> statement-breakpoint
CREATE TABLE "share_link_photos" (
	"share_link_id" uuid NOT NULL,
	"oral_photo_id" uuid NOT NULL,
	CONSTRAINT "share_link_photos_share_link_id_oral_photo_id_pk" PRIMARY KEY("share_link_id","oral_photo_id")
);
--> statement-breakpoint
CREATE TABLE "share_link_records" (
	"share_link_id" uuid NOT NULL,
	"medical_record_id" uuid NOT NULL,
	CONSTRAINT "share_link_records_share_link_id_medical_record_id_pk" PRIMARY KEY("share_link_id","medical_record_id")
);
--> statement-breakpoint
ALTER TABLE "share_links" ADD CONSTRAINT "share_links_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "share_link_photos" ADD CONSTRAINT "share_link_photos_share_link_id_share_links_id_fk" FOREIGN KEY ("share_link_id") REFERENCES "public"."share_links"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "share_link_photos" ADD CONSTRAINT "share_link_photos_oral_photo_id_oral_photos_id_fk" FOREIGN KEY ("oral_photo_id") REFERENCES "public"."oral_photos"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "share_link_records" ADD CONSTRAINT "share_link_records_share_link_id_share_links_id_fk" FOREIGN KEY ("share_link_id") REFERENCES "public"."share_links"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "share_link_records" ADD CONSTRAINT "share_link_records_medical_record_id_medical_records_id_fk" FOREIGN KEY ("medical_record_id") REFERENCES "public"."medical_records"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "share_links_user_id_created_at_idx" ON "share_links" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "share_link_photos_oral_photo_id_idx" ON "share_link_photos" USING btree ("oral_photo_id");--> statement-breakpoint
CREATE INDEX "share_link_records_medical_record_id_idx" ON "share_link_records" USING btree ("medical_record_id");
