-- Shared by every service schema (applied by migrate() before the service's own migrations).
-- Records the store refused (poison): set aside with the reason so they never block the records
-- behind them, another org's requests or the next start. `payload` is JSON text, not jsonb: the
-- store may have refused the record precisely because its JSON would not go into a jsonb column.
CREATE TABLE IF NOT EXISTS "dead_letters" (
  "seq" BIGSERIAL PRIMARY KEY,
  "kind" TEXT NOT NULL,
  "record_id" TEXT,
  "org_id" TEXT,
  "reason" TEXT NOT NULL,
  "payload" TEXT NOT NULL,
  "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT now()
);
CREATE INDEX IF NOT EXISTS "dead_letters_kind_idx" ON "dead_letters" ("kind", "seq");
