ALTER TABLE `workflows` DROP COLUMN `shared_with_org`;--> statement-breakpoint
ALTER TABLE `workflows` DROP COLUMN `organization_id`;