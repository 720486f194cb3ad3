CREATE TABLE `search_jobs` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`status` text NOT NULL,
	`query` text NOT NULL,
	`request` text NOT NULL,
	`session_context` text,
	`provider` text NOT NULL,
	`results` text,
	`suggested_queries` text,
	`summary` text,
	`credits` text NOT NULL,
	`error` text,
	`created_at` text NOT NULL,
	`started_at` text,
	`completed_at` text
);
--> statement-breakpoint
CREATE INDEX `search_jobs_user` ON `search_jobs` (`user_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `search_jobs_status` ON `search_jobs` (`status`);--> statement-breakpoint
CREATE TABLE `search_pages` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`url` text NOT NULL,
	`scope` text NOT NULL,
	`owner_user_id` text,
	`crawl_id` text,
	`domain` text NOT NULL,
	`title` text NOT NULL,
	`description` text NOT NULL,
	`schema_types` text NOT NULL,
	`published_date` text,
	`language` text,
	`fetched_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `search_pages_url_scope` ON `search_pages` (`url`,`scope`);--> statement-breakpoint
CREATE INDEX `search_pages_crawl` ON `search_pages` (`crawl_id`);--> statement-breakpoint
CREATE INDEX `search_pages_owner` ON `search_pages` (`owner_user_id`);