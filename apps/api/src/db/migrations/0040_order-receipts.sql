ALTER TABLE "shop_orders" ADD COLUMN "receipt_number" text;--> statement-breakpoint
ALTER TABLE "shop_orders" ADD COLUMN "card_brand" text;--> statement-breakpoint
CREATE UNIQUE INDEX "shop_orders_receipt_number_idx" ON "shop_orders" USING btree ("receipt_number");--> statement-breakpoint
-- Orders paid before they had receipts get their numbers in the order they were paid; their card was not recorded.
UPDATE "shop_orders" AS "o" SET "receipt_number" = "numbered"."number" FROM (SELECT "id", 'DC-' || to_char("paid_at" AT TIME ZONE 'UTC', 'YYYY') || '-' || lpad("n"::text, greatest(6, length("n"::text)), '0') AS "number" FROM (SELECT "id", "paid_at", nextval('receipt_numbers') AS "n" FROM (SELECT "id", "paid_at" FROM "shop_orders" WHERE "status" = 'paid' ORDER BY "paid_at", "id") AS "ordered") AS "taken") AS "numbered" WHERE "o"."id" = "numbered"."id";
