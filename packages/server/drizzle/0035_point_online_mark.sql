CREATE TABLE "point_online_mark" (
	"at" timestamp with time zone PRIMARY KEY NOT NULL,
	"point_ids" integer[] NOT NULL,
	"secs" double precision[] NOT NULL
);
