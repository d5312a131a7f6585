-- Issue 14: no planner statistics for the frames and samples kept as JSON. No query filters or sorts on
-- them, and ANALYZE sorted a sample of whole JSON documents to compute them: on PGlite, whose one session
-- every charger waits on while the server runs ANALYZE itself (src/db/pglite-maintenance.ts), meter_value's
-- took 91-107 ms and 24-29 ms without; on PostgreSQL autovacuum's ANALYZE does less work for nothing lost.
ALTER TABLE "ocpp_log" ALTER COLUMN "payload" SET STATISTICS 0;--> statement-breakpoint
ALTER TABLE "ocpp_log" ALTER COLUMN "response_payload" SET STATISTICS 0;--> statement-breakpoint
ALTER TABLE "meter_value" ALTER COLUMN "raw" SET STATISTICS 0;
