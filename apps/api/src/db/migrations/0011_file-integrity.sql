CREATE TABLE "stored_file_digests" (
	"blob_key" text PRIMARY KEY NOT NULL,
	"sha256" text NOT NULL,
	"size_bytes" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
