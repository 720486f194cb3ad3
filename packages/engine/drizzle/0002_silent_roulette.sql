CREATE TABLE `workflow_executions` (
	`id` text PRIMARY KEY NOT NULL,
	`workflow_id` text NOT NULL,
	`user_id` text NOT NULL,
	`seq` integer NOT NULL,
	`trigger` text NOT NULL,
	`slot` text,
	`status` text NOT NULL,
	`condition_met` integer DEFAULT false NOT NULL,
	`body` text NOT NULL,
	`started_at` text NOT NULL,
	`finished_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `workflow_executions_seq` ON `workflow_executions` (`workflow_id`,`seq`);--> statement-breakpoint
CREATE UNIQUE INDEX `workflow_executions_slot` ON `workflow_executions` (`workflow_id`,`slot`);--> statement-breakpoint
CREATE TABLE `workflow_plan_jobs` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`status` text NOT NULL,
	`request` text NOT NULL,
	`result` text,
	`error` text,
	`created_at` text NOT NULL,
	`completed_at` text
);
--> statement-breakpoint
CREATE INDEX `workflow_plan_jobs_user` ON `workflow_plan_jobs` (`user_id`);--> statement-breakpoint
CREATE TABLE `workflows` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`name` text NOT NULL,
	`description` text,
	`mode` text NOT NULL,
	`workflow_type` text,
	`operation_config` text,
	`steps` text,
	`intent` text,
	`max_credits_per_execution` real,
	`plan` text,
	`stop_condition` text NOT NULL,
	`max_executions` integer,
	`notification_config` text,
	`session_id` text,
	`tags` text NOT NULL,
	`interval` text,
	`interval_minutes` integer,
	`cron_expression` text,
	`scheduled_for` text,
	`anchor_minute` integer,
	`timezone` text NOT NULL,
	`status` text NOT NULL,
	`status_reason` text,
	`execution_count` integer DEFAULT 0 NOT NULL,
	`consecutive_failures` integer DEFAULT 0 NOT NULL,
	`next_run_at` text,
	`last_run_at` text,
	`shared_with_org` integer DEFAULT false NOT NULL,
	`organization_id` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `workflows_user` ON `workflows` (`user_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `workflows_due` ON `workflows` (`status`,`next_run_at`);