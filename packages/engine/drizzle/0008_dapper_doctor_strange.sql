CREATE TABLE `web_cache` (
	`url` text PRIMARY KEY NOT NULL,
	`final_url` text NOT NULL,
	`redirects` text NOT NULL,
	`fetched_at` integer NOT NULL,
	`status` integer NOT NULL,
	`headers` text NOT NULL,
	`content_type` text NOT NULL,
	`kind` text NOT NULL,
	`charset` text,
	`canonical_url` text,
	`body` text,
	`bytes` integer NOT NULL
);
