CREATE TABLE "crawl_document_scores" (
	"crawl_id" text NOT NULL,
	"url" text NOT NULL,
	"importance" double precision DEFAULT 0 NOT NULL,
	"hub_score" double precision DEFAULT 0 NOT NULL,
	"authority_score" double precision DEFAULT 0 NOT NULL,
	"inlinks" integer DEFAULT 0 NOT NULL,
	"outlinks" integer DEFAULT 0 NOT NULL,
	"anchors" jsonb NOT NULL,
	CONSTRAINT "crawl_document_scores_crawl_id_url_pk" PRIMARY KEY("crawl_id","url")
);
--> statement-breakpoint
INSERT INTO "crawl_document_scores" ("crawl_id", "url", "importance", "hub_score", "authority_score", "inlinks", "outlinks", "anchors")
  SELECT "crawl_id", "url", "importance", "hub_score", "authority_score", "inlinks", "outlinks", "anchors" FROM "crawl_documents";--> statement-breakpoint
ALTER TABLE "crawl_documents" DROP COLUMN "importance";--> statement-breakpoint
ALTER TABLE "crawl_documents" DROP COLUMN "hub_score";--> statement-breakpoint
ALTER TABLE "crawl_documents" DROP COLUMN "authority_score";--> statement-breakpoint
ALTER TABLE "crawl_documents" DROP COLUMN "inlinks";--> statement-breakpoint
ALTER TABLE "crawl_documents" DROP COLUMN "outlinks";--> statement-breakpoint
ALTER TABLE "crawl_documents" DROP COLUMN "anchors";