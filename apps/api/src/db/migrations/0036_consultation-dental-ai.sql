CREATE TABLE "reservation_dental_ai_results" (
	"reservation_id" uuid NOT NULL,
	"dental_ai_result_id" uuid NOT NULL,
	CONSTRAINT "reservation_dental_ai_results_reservation_id_dental_ai_result_id_pk" PRIMARY KEY("reservation_id","dental_ai_result_id")
);
--> statement-breakpoint
ALTER TABLE "reservation_dental_ai_results" ADD CONSTRAINT "reservation_dental_ai_results_reservation_id_reservations_id_fk" FOREIGN KEY ("reservation_id") REFERENCES "public"."reservations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reservation_dental_ai_results" ADD CONSTRAINT "reservation_dental_ai_results_dental_ai_result_id_dental_ai_results_id_fk" FOREIGN KEY ("dental_ai_result_id") REFERENCES "public"."dental_ai_results"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "reservation_dental_ai_results_result_id_idx" ON "reservation_dental_ai_results" USING btree ("dental_ai_result_id");