CREATE TABLE "share_link_reports" (
	"share_link_id" uuid NOT NULL,
	"report_id" uuid NOT NULL,
	CONSTRAINT "share_link_reports_share_link_id_report_id_pk" PRIMARY KEY("share_link_id","report_id")
);
--> statement-breakpoint
ALTER TABLE "reports" ADD COLUMN "downloaded_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "share_link_reports" ADD CONSTRAINT "share_link_reports_share_link_id_share_links_id_fk" FOREIGN KEY ("share_link_id") REFERENCES "public"."share_links"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "share_link_reports" ADD CONSTRAINT "share_link_reports_report_id_reports_id_fk" FOREIGN KEY ("report_id") REFERENCES "public"."reports"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "share_link_reports_report_id_idx" ON "share_link_reports" USING btree ("report_id");