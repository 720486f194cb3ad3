CREATE TABLE "host_gates" (
	"origin" text PRIMARY KEY NOT NULL,
	"next_start" bigint NOT NULL
);
