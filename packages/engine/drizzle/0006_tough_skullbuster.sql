CREATE TABLE `crawl_documents` (
	`crawl_id` text NOT NULL,
	`url` text NOT NULL,
	`seq` integer NOT NULL,
	`final_url` text NOT NULL,
	`status_code` integer NOT NULL,
	`content_type` text NOT NULL,
	`depth` integer NOT NULL,
	`title` text,
	`description` text,
	`language` text,
	`published_date` text,
	`text` text NOT NULL,
	`markdown` text NOT NULL,
	`links` text NOT NULL,
	`metadata` text NOT NULL,
	`extracted_data` text,
	`classification` text,
	`from_cache` integer NOT NULL,
	`credits` integer NOT NULL,
	`importance` real DEFAULT 0 NOT NULL,
	`hub_score` real DEFAULT 0 NOT NULL,
	`authority_score` real DEFAULT 0 NOT NULL,
	`inlinks` integer DEFAULT 0 NOT NULL,
	`outlinks` integer DEFAULT 0 NOT NULL,
	`anchors` text NOT NULL,
	`fetched_at` text NOT NULL,
	PRIMARY KEY(`crawl_id`, `url`)
);
--> statement-breakpoint
CREATE INDEX `crawl_documents_seq` ON `crawl_documents` (`crawl_id`,`seq`);--> statement-breakpoint
CREATE TABLE `crawl_edges` (
	`crawl_id` text NOT NULL,
	`from_url` text NOT NULL,
	`to_url` text NOT NULL,
	PRIMARY KEY(`crawl_id`, `from_url`, `to_url`)
);
--> statement-breakpoint
CREATE TABLE `crawl_frontier` (
	`crawl_id` text NOT NULL,
	`url` text NOT NULL,
	`seq` integer NOT NULL,
	`depth` integer NOT NULL,
	`state` text NOT NULL,
	`bucket` text NOT NULL,
	`relevance` real DEFAULT 0 NOT NULL,
	`cash` real DEFAULT 0 NOT NULL,
	`history` real DEFAULT 0 NOT NULL,
	`authority` real DEFAULT 0 NOT NULL,
	`priority` real DEFAULT 0 NOT NULL,
	`inlinks` integer DEFAULT 0 NOT NULL,
	`anchors` text NOT NULL,
	`context` text DEFAULT '' NOT NULL,
	PRIMARY KEY(`crawl_id`, `url`)
);
--> statement-breakpoint
CREATE INDEX `crawl_frontier_next` ON `crawl_frontier` (`crawl_id`,`state`,`bucket`,`priority`);--> statement-breakpoint
CREATE INDEX `crawl_frontier_bfs` ON `crawl_frontier` (`crawl_id`,`state`,`depth`,`seq`);--> statement-breakpoint
CREATE TABLE `crawls` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`status` text NOT NULL,
	`config` text NOT NULL,
	`strategy` text NOT NULL,
	`max_depth` integer NOT NULL,
	`max_pages` integer NOT NULL,
	`max_credits` integer,
	`price_per_page` integer NOT NULL,
	`reservation_id` text,
	`pages_fetched` integer DEFAULT 0 NOT NULL,
	`pages_failed` integer DEFAULT 0 NOT NULL,
	`pages_cached` integer DEFAULT 0 NOT NULL,
	`pages_skipped` integer DEFAULT 0 NOT NULL,
	`credits_used` integer DEFAULT 0 NOT NULL,
	`session_id` text,
	`run_at` integer NOT NULL,
	`smart_crawl` text,
	`summary` text,
	`error` text,
	`created_at` text NOT NULL,
	`started_at` text,
	`completed_at` text
);
--> statement-breakpoint
CREATE INDEX `crawls_user` ON `crawls` (`user_id`,`created_at`);