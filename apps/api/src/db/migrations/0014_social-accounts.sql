ALTER TABLE "users" ALTER COLUMN "password_hash" DROP NOT NULL;
--> statement-breakpoint
CREATE TYPE "public"."social_provider" AS ENUM('google', 'apple', 'facebook');
--> statement-breakpoint
CREATE TABLE "social_accounts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"provider" "social_provider" NOT NULL,
	"subject" text NOT NULL,
	"email" text,
	"linked_at" timestamp with time zone NOT NULL,
	CONSTRAINT "social_accounts_provider_subject_key" UNIQUE("provider","subject"),
	CONSTRAINT "social_accounts_user_id_provider_key" UNIQUE("user_id","provider")
);
--> statement-breakpoint
ALTER TABLE "social_accounts" ADD CONSTRAINT "social_accounts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;
