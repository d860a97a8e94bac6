CREATE TABLE "delegations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"owner_id" uuid NOT NULL,
	"email" text NOT NULL,
	"delegate_id" uuid,
	"invited_at" timestamp with time zone NOT NULL,
	"accepted_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "delegations" ADD CONSTRAINT "delegations_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "delegations" ADD CONSTRAINT "delegations_delegate_id_users_id_fk" FOREIGN KEY ("delegate_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "delegations_owner_email_key" ON "delegations" USING btree ("owner_id",lower("email"));--> statement-breakpoint
CREATE INDEX "delegations_delegate_id_idx" ON "delegations" USING btree ("delegate_id");--> statement-breakpoint
CREATE INDEX "delegations_email_lower_idx" ON "delegations" USING btree (lower("email"));
