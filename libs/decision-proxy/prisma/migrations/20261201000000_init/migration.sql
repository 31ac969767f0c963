-- decision-proxy: every decision of POST /v1/mcp-proxy/call (the defer ones are the review queue),
-- plus the outbox and processed-event tables every service has. Written with raw SQL (batched);
-- there is no Prisma model for these tables.
CREATE TABLE "decisions" (
  "decision_id" TEXT NOT NULL PRIMARY KEY,
  "org_id" TEXT NOT NULL,
  "kind" TEXT NOT NULL,
  "rule_id" TEXT,
  "stage" TEXT NOT NULL,
  "reason" TEXT,
  "shadow_kind" TEXT,
  "decision" JSONB NOT NULL,
  "cred_id" TEXT NOT NULL,
  "intent_id" TEXT NOT NULL,
  "prompt_id" TEXT NOT NULL,
  "actor" TEXT NOT NULL,
  "audience" TEXT NOT NULL,
  "surface" TEXT NOT NULL,
  "operation" TEXT NOT NULL,
  "target_resource" TEXT,
  "arguments_sha256" TEXT NOT NULL,
  "key_id" TEXT NOT NULL,
  "approval_request_id" TEXT,
  "review_id" TEXT,
  "review_status" TEXT,
  "reviewed_at" TIMESTAMPTZ(3),
  "reviewed_by_key_id" TEXT,
  "review_note" TEXT,
  "created_at" TIMESTAMPTZ(3) NOT NULL
);
-- Few indexes: every decision is inserted, only deferred ones are listed. The partial indexes hold
-- review rows only, so an ordinary decision costs the primary key alone.
CREATE UNIQUE INDEX "decisions_review_id_key" ON "decisions" ("review_id") WHERE "review_id" IS NOT NULL;
CREATE INDEX "decisions_reviews_idx" ON "decisions" ("org_id", "created_at" DESC, "review_id" DESC) WHERE "review_id" IS NOT NULL;

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
