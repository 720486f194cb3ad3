CREATE TABLE `crawl_document_scores` (
	`crawl_id` text NOT NULL,
	`url` text NOT NULL,
	`importance` real DEFAULT 0 NOT NULL,
	`hub_score` real DEFAULT 0 NOT NULL,
	`authority_score` real DEFAULT 0 NOT NULL,
	`inlinks` integer DEFAULT 0 NOT NULL,
	`outlinks` integer DEFAULT 0 NOT NULL,
	`anchors` text NOT NULL,
	PRIMARY KEY(`crawl_id`, `url`)
);
--> statement-breakpoint
INSERT INTO `crawl_document_scores` (`crawl_id`, `url`, `importance`, `hub_score`, `authority_score`, `inlinks`, `outlinks`, `anchors`)
  SELECT `crawl_id`, `url`, `importance`, `hub_score`, `authority_score`, `inlinks`, `outlinks`, `anchors` FROM `crawl_documents`;--> statement-breakpoint
ALTER TABLE `crawl_documents` DROP COLUMN `importance`;--> statement-breakpoint
ALTER TABLE `crawl_documents` DROP COLUMN `hub_score`;--> statement-breakpoint
ALTER TABLE `crawl_documents` DROP COLUMN `authority_score`;--> statement-breakpoint
ALTER TABLE `crawl_documents` DROP COLUMN `inlinks`;--> statement-breakpoint
ALTER TABLE `crawl_documents` DROP COLUMN `outlinks`;--> statement-breakpoint
ALTER TABLE `crawl_documents` DROP COLUMN `anchors`;