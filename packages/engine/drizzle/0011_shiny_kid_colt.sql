ALTER TABLE `crawl_documents` ADD `summary` text;--> statement-breakpoint
ALTER TABLE `crawls` ADD `pages_filtered` integer DEFAULT 0 NOT NULL;