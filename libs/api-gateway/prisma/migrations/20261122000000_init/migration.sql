-- api-gateway: orgs and API keys, plus the outbox and processed-event tables every service has.
CREATE TABLE "orgs" (
  "id" TEXT NOT NULL PRIMARY KEY,
  "name" TEXT NOT NULL,
  "rate_limit_rps" INTEGER,
  "rate_limit_burst" INTEGER,
  "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT now()
);

CREATE TABLE "api_keys" (
  "id" TEXT NOT NULL PRIMARY KEY,
  "org_id" TEXT NOT NULL REFERENCES "orgs" ("id"),
  "name" TEXT NOT NULL,
  "scope" TEXT NOT NULL,
  "prefix" TEXT NOT NULL,
  "hash" TEXT NOT NULL,
  "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
  "revoked_at" TIMESTAMPTZ(3)
);
CREATE UNIQUE INDEX "api_keys_hash_key" ON "api_keys" ("hash");
CREATE INDEX "api_keys_org_id_created_at_idx" ON "api_keys" ("org_id", "created_at");

CREATE TABLE "outbox_events" (
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
CREATE UNIQUE INDEX "outbox_events_id_key" ON "outbox_events" ("id");
CREATE INDEX "outbox_events_unpublished_idx" ON "outbox_events" ("seq") WHERE "published_at" IS NULL;

CREATE TABLE "processed_events" (
  "consumer" TEXT NOT NULL,
  "event_id" TEXT NOT NULL,
  "processed_at" TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
  PRIMARY KEY ("consumer", "event_id")
);
