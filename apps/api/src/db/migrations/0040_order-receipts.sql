ALTER TABLE "shop_orders" ADD COLUMN "receipt_number" text;--> statement-breakpoint
ALTER TABLE "shop_orders" ADD COLUMN "card_brand" text;--> statement-breakpoint
CREATE UNIQUE INDEX "shop_orders_receipt_number_idx" ON "shop_orders" USING btree ("receipt_number");