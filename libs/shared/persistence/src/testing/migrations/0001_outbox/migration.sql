-- Fixture for the persistence int-specs: the outbox tables every service migration creates,
-- plus one table standing in for a consumer's effect.
CREATE TABLE "outbox_events" (
  "seq" BIGSERIAL PRIMARY KEY,
  "id" TEXT NOT NULL UNIQUE,
  "topic" TEXT NOT NULL,
  "key" TEXT NOT NULL,
  "envelope" JSONB NOT NULL,
  "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
  "published_at" TIMESTAMPTZ(3),
  "attempts" INTEGER NOT NULL DEFAULT 0,
  "last_error" TEXT
);
CREATE TABLE "processed_events" (
  "consumer" TEXT NOT NULL,
  "event_id" TEXT NOT NULL,
  "processed_at" TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
  PRIMARY KEY ("consumer", "event_id")
);
CREATE TABLE "effects" ("event_id" TEXT NOT NULL, "note" TEXT NOT NULL);
