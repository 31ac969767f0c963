-- The week's chart from day rows (DESIGN 6.14, decision 0027): each completed hour's counts are
-- rolled up, off the recording path, into one row per org, dimension, UTC day and key holding
-- the day's 24 hourly counts. A 7d chart reads 8 such rows per key and the hourly rows after
-- the roll-up's mark, instead of 168 hourly rows.
CREATE TABLE "stat_hours_by_day" (
  "org_id" TEXT NOT NULL,
  "dimension" TEXT NOT NULL,
  "day" TIMESTAMPTZ(3) NOT NULL,
  "key" TEXT NOT NULL,
  "hours" BIGINT[] NOT NULL,
  -- hours rides in the key's index: the chart is read by an index-only scan.
  PRIMARY KEY ("org_id", "dimension", "day", "key") INCLUDE ("hours")
);
-- The prune deletes by age across orgs.
CREATE INDEX "stat_hours_by_day_day_idx" ON "stat_hours_by_day" ("day");
-- How far the hourly rows are rolled up (exclusive): one row, NULL until the first roll-up. A
-- read takes the day rows' hours before it and the hourly rows from it, in one snapshot.
CREATE TABLE "stat_rollup_mark" (
  "id" SMALLINT PRIMARY KEY CHECK ("id" = 1),
  "hours_to" TIMESTAMPTZ(3)
);
INSERT INTO "stat_rollup_mark" ("id", "hours_to") VALUES (1, NULL);
