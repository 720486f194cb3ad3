CREATE TABLE `session_operations` (
	`id` text PRIMARY KEY NOT NULL,
	`session_id` text NOT NULL,
	`seq` integer NOT NULL,
	`kind` text NOT NULL,
	`status` text NOT NULL,
	`query` text,
	`target_urls` text NOT NULL,
	`result_count` integer DEFAULT 0 NOT NULL,
	`filtered_count` integer DEFAULT 0 NOT NULL,
	`result_summary` text,
	`credits` integer DEFAULT 0 NOT NULL,
	`resource_id` text,
	`error` text,
	`started_at` text NOT NULL,
	`finished_at` text,
	FOREIGN KEY (`session_id`) REFERENCES `sessions`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `session_operations_seq` ON `session_operations` (`session_id`,`seq`);--> statement-breakpoint
CREATE TABLE `session_seen_urls` (
	`session_id` text NOT NULL,
	`url` text NOT NULL,
	`operation_id` text NOT NULL,
	`seen_at` text NOT NULL,
	PRIMARY KEY(`session_id`, `url`),
	FOREIGN KEY (`session_id`) REFERENCES `sessions`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `sessions` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`name` text NOT NULL,
	`description` text,
	`intent_context` text,
	`status` text NOT NULL,
	`config` text NOT NULL,
	`metadata` text NOT NULL,
	`context` text NOT NULL,
	`operation_count` integer DEFAULT 0 NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	`last_activity_at` text NOT NULL,
	`completed_at` text,
	`archived_at` text,
	`archived_reason` text
);
--> statement-breakpoint
CREATE INDEX `sessions_user_status` ON `sessions` (`user_id`,`status`);--> statement-breakpoint
CREATE INDEX `sessions_status_activity` ON `sessions` (`status`,`last_activity_at`);