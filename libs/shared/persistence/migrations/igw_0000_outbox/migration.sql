-- Shared by every service schema (applied by migrate() before the service's own migrations).
-- The transactional outbox (rows written with the change, published by the relay after commit)
-- and the consumers' record of events already applied (idempotent consumption). Defined once here;
-- schemas created before this file existed got the same tables from their service's init
-- migration, hence IF NOT EXISTS.
CREATE TABLE IF NOT EXISTS "outbox_events" (
  "seq" BIGSERIAL PRIMARY KEY,
  "id" TEXT NOT NULL,
  "topic" TEXT NOT NULL,
  "key" TEXT NOT NULL,
  "envelope" JSONB NOT NULL,
  "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
  "published_at" TIMESTAMPTZ(3),
  "attempts" INTEGER NOT NULL DEFAULT 0,
  "last_error" TEXT
);
CREATE UNIQUE INDEX IF NOT EXISTS "outbox_events_id_key" ON "outbox_events" ("id");
CREATE INDEX IF NOT EXISTS "outbox_events_unpublished_idx" ON "outbox_events" ("seq") WHERE "published_at" IS NULL;

CREATE TABLE IF NOT EXISTS "processed_events" (
  "consumer" TEXT NOT NULL,
  "event_id" TEXT NOT NULL,
  "processed_at" TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
  PRIMARY KEY ("consumer", "event_id")
);
