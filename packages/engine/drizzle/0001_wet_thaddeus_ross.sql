CREATE TABLE `resource_shares` (
	`resource_type` text NOT NULL,
	`resource_id` text NOT NULL,
	`owner_user_id` text NOT NULL,
	`public_share` integer DEFAULT false NOT NULL,
	`shared_with_org` integer DEFAULT false NOT NULL,
	`organization_id` text,
	`parent_type` text,
	`parent_id` text,
	`updated_at` text NOT NULL,
	PRIMARY KEY(`resource_type`, `resource_id`)
);
--> statement-breakpoint
CREATE INDEX `resource_shares_org` ON `resource_shares` (`organization_id`,`resource_type`);--> statement-breakpoint
CREATE INDEX `resource_shares_parent` ON `resource_shares` (`parent_type`,`parent_id`);--> statement-breakpoint
CREATE TABLE `notify_deliveries` (
	`id` text PRIMARY KEY NOT NULL,
	`event_id` text NOT NULL,
	`user_id` text NOT NULL,
	`kind` text NOT NULL,
	`payload` text NOT NULL,
	`channel` text NOT NULL,
	`target` text NOT NULL,
	`status` text DEFAULT 'pending' NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`next_attempt_at` integer,
	`last_error` text,
	`last_status_code` integer,
	`created_at` text NOT NULL,
	`delivered_at` text
);
--> statement-breakpoint
CREATE INDEX `notify_deliveries_due` ON `notify_deliveries` (`status`,`next_attempt_at`);--> statement-breakpoint
CREATE INDEX `notify_deliveries_user` ON `notify_deliveries` (`user_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `webhook_secrets` (
	`user_id` text PRIMARY KEY NOT NULL,
	`secret` text NOT NULL,
	`created_at` text NOT NULL
);
