CREATE TABLE "oral_photos" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"shoot_date" date NOT NULL,
	"photo_type" text NOT NULL,
	"note" text DEFAULT '' NOT NULL,
	"blob_key" text NOT NULL,
	"content_type" text NOT NULL,
	"size_bytes" integer NOT NULL,
	"thumbnail_key" text NOT NULL,
	"thumbnail_size_bytes" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "oral_photos_blob_key_unique" UNIQUE("blob_key"),
	CONSTRAINT "oral_photos_thumbnail_key_unique" UNIQUE("thumbnail_key")
);
--> statement-breakpoint
ALTER TABLE "oral_photos" ADD CONSTRAINT "oral_photos_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "oral_photos_user_id_shoot_date_idx" ON "oral_photos" USING btree ("user_id","shoot_date");