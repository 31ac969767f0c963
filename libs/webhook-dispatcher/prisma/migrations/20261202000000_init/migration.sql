-- webhook-dispatcher: registered endpoints (secrets sealed under the KEK), one delivery per
-- (endpoint, event) with its persisted retry state. Written with raw SQL; there is no Prisma model
-- for these tables.
-- The outbox and processed-event tables every schema has are shared (libs/shared/persistence/migrations).
CREATE TABLE "webhooks" (
  "id" TEXT NOT NULL PRIMARY KEY,
  "org_id" TEXT NOT NULL,
  "url" TEXT NOT NULL,
  "events" TEXT[] NOT NULL,
  "description" TEXT,
  "status" TEXT NOT NULL,
  "disabled_reason" TEXT,
  "secrets" JSONB NOT NULL,
  "created_at" TIMESTAMPTZ(3) NOT NULL,
  "updated_at" TIMESTAMPTZ(3) NOT NULL
);
CREATE INDEX "webhooks_org_created_idx" ON "webhooks" ("org_id", "created_at" DESC, "id" DESC);

CREATE TABLE "webhook_deliveries" (
  "id" TEXT NOT NULL PRIMARY KEY,
  "org_id" TEXT NOT NULL,
  "webhook_id" TEXT NOT NULL REFERENCES "webhooks" ("id") ON DELETE CASCADE,
  "event_id" TEXT NOT NULL,
  "event_type" TEXT NOT NULL,
  "body" TEXT NOT NULL,
  "status" TEXT NOT NULL,
  "attempts" INTEGER NOT NULL DEFAULT 0,
  "last_response_code" INTEGER,
  "last_error" TEXT,
  "next_attempt_at" TIMESTAMPTZ(3),
  "lease_until" TIMESTAMPTZ(3),
  "created_at" TIMESTAMPTZ(3) NOT NULL,
  "delivered_at" TIMESTAMPTZ(3),
  CONSTRAINT "webhook_deliveries_once" UNIQUE ("webhook_id", "event_id")
);
CREATE INDEX "webhook_deliveries_due_idx" ON "webhook_deliveries" ("next_attempt_at") WHERE "status" = 'pending';
CREATE INDEX "webhook_deliveries_list_idx" ON "webhook_deliveries" ("webhook_id", "created_at" DESC, "id" DESC);
