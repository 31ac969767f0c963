-- Fixture for the persistence int-specs: migrate() brings the shared outbox tables; this adds one
-- table standing in for a consumer's effect.
CREATE TABLE "effects" ("event_id" TEXT NOT NULL, "note" TEXT NOT NULL);
