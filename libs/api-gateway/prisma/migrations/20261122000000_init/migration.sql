-- api-gateway: orgs and API keys.
-- The outbox and processed-event tables every schema has are shared (libs/shared/persistence/migrations).
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
