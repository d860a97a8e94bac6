CREATE TABLE "share_link_dental_ai_results" (
	"share_link_id" uuid NOT NULL,
	"dental_ai_result_id" uuid NOT NULL,
	CONSTRAINT "share_link_dental_ai_results_share_link_id_dental_ai_result_id_pk" PRIMARY KEY("share_link_id","dental_ai_result_id")
);
--> statement-breakpoint
ALTER TABLE "share_link_dental_ai_results" ADD CONSTRAINT "share_link_dental_ai_results_share_link_id_share_links_id_fk" FOREIGN KEY ("share_link_id") REFERENCES "public"."share_links"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "share_link_dental_ai_results" ADD CONSTRAINT "share_link_dental_ai_results_dental_ai_result_id_dental_ai_results_id_fk" FOREIGN KEY ("dental_ai_result_id") REFERENCES "public"."dental_ai_results"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "share_link_dental_ai_results_result_id_idx" ON "share_link_dental_ai_results" USING btree ("dental_ai_result_id");