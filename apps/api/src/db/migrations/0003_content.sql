CREATE TABLE "content_images" (
	"sha256" text PRIMARY KEY NOT NULL,
	"media_type" text NOT NULL,
	"body" "bytea" NOT NULL,
	"description" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "content_topics" (
	"key" text PRIMARY KEY NOT NULL,
	"title" text NOT NULL,
	"image_sha256" text NOT NULL,
	"body_markdown" text NOT NULL,
	"body_sha256" text NOT NULL,
	"loaded_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "knowledge_articles" (
	"id" uuid PRIMARY KEY NOT NULL,
	"slug" text NOT NULL,
	"title" text NOT NULL,
	"position" integer NOT NULL,
	"cover_sha256" text NOT NULL,
	"body_markdown" text NOT NULL,
	"body_sha256" text NOT NULL,
	"loaded_at" timestamp with time zone NOT NULL,
	"updated_on" date NOT NULL,
	CONSTRAINT "knowledge_articles_slug_unique" UNIQUE("slug")
);
--> statement-breakpoint
CREATE TABLE "supplier_pages" (
	"id" uuid PRIMARY KEY NOT NULL,
	"slug" text NOT NULL,
	"title" text NOT NULL,
	"position" integer NOT NULL,
	"cover_sha256" text NOT NULL,
	"body_markdown" text NOT NULL,
	"body_sha256" text NOT NULL,
	"loaded_at" timestamp with time zone NOT NULL,
	"buy_url" text,
	CONSTRAINT "supplier_pages_slug_unique" UNIQUE("slug")
);
--> statement-breakpoint
ALTER TABLE "content_topics" ADD CONSTRAINT "content_topics_image_sha256_content_images_sha256_fk" FOREIGN KEY ("image_sha256") REFERENCES "public"."content_images"("sha256") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "knowledge_articles" ADD CONSTRAINT "knowledge_articles_cover_sha256_content_images_sha256_fk" FOREIGN KEY ("cover_sha256") REFERENCES "public"."content_images"("sha256") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "supplier_pages" ADD CONSTRAINT "supplier_pages_cover_sha256_content_images_sha256_fk" FOREIGN KEY ("cover_sha256") REFERENCES "public"."content_images"("sha256") ON DELETE no action ON UPDATE no action;