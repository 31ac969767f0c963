-- The overview's counts (GET /v1/stats), keyed by dimension before bucket: a window reads its
-- chart dimension and each total dimension as index ranges, not every key of every bucket.
ALTER TABLE "stat_counts" DROP CONSTRAINT "stat_counts_pkey";
ALTER TABLE "stat_counts" ADD PRIMARY KEY ("org_id", "granularity", "dimension", "bucket", "key") INCLUDE ("n");
-- Day buckets (granularity 1440) hold the week's totals from now on; the hours already kept make
-- the days of the past week exactly.
INSERT INTO "stat_counts" ("org_id", "granularity", "bucket", "dimension", "key", "n")
SELECT "org_id", 1440, date_bin(INTERVAL '1 day', "bucket", TIMESTAMPTZ '2000-01-01 00:00:00+00'), "dimension", "key", sum("n")
FROM "stat_counts"
WHERE "granularity" = 60
GROUP BY 1, 3, 4, 5;
