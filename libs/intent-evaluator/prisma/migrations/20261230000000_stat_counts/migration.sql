-- The console overview's counts (DESIGN 6.14, GET /v1/stats): per org, bucket and key, at each
-- bucket width a window reads (1, 15 and 60 minutes). Added to in the statement that records the
-- events they count; buckets past their window are pruned by the service.
CREATE TABLE "stat_counts" (
  "org_id" TEXT NOT NULL,
  "granularity" SMALLINT NOT NULL,
  "bucket" TIMESTAMPTZ(3) NOT NULL,
  "dimension" TEXT NOT NULL,
  "key" TEXT NOT NULL,
  "n" BIGINT NOT NULL,
  -- n rides in the key's index: a window is read by an index-only scan.
  PRIMARY KEY ("org_id", "granularity", "bucket", "dimension", "key") INCLUDE ("n")
);
-- The prune deletes by age across orgs.
CREATE INDEX "stat_counts_granularity_bucket_idx" ON "stat_counts" ("granularity", "bucket");
