CREATE SEQUENCE "public"."receipt_numbers" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1;--> statement-breakpoint
ALTER TABLE "membership_payments" ADD COLUMN "currency" text DEFAULT 'USD' NOT NULL;--> statement-breakpoint
ALTER TABLE "membership_payments" ADD COLUMN "receipt_number" text;--> statement-breakpoint
ALTER TABLE "membership_payments" ADD COLUMN "card_brand" text;--> statement-breakpoint
ALTER TABLE "membership_payments" ADD COLUMN "card_last4" text;--> statement-breakpoint
CREATE UNIQUE INDEX "membership_payments_receipt_number_idx" ON "membership_payments" USING btree ("receipt_number");--> statement-breakpoint
-- Payments taken before receipts existed get their numbers in the order they were paid; their card was not recorded.
UPDATE "membership_payments" AS "p" SET "receipt_number" = "numbered"."number" FROM (SELECT "id", 'DC-' || to_char("completed_at" AT TIME ZONE 'UTC', 'YYYY') || '-' || lpad("n"::text, greatest(6, length("n"::text)), '0') AS "number" FROM (SELECT "id", "completed_at", nextval('receipt_numbers') AS "n" FROM (SELECT "id", "completed_at" FROM "membership_payments" WHERE "status" IN ('paid', 'superseded') ORDER BY "completed_at", "id") AS "ordered") AS "taken") AS "numbered" WHERE "p"."id" = "numbered"."id";
