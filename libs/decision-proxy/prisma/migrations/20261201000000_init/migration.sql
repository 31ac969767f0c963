-- decision-proxy: every decision of POST /v1/mcp-proxy/call (the defer ones are the review queue).
-- Written with raw SQL (batched); there is no Prisma model for these tables.
-- The outbox and processed-event tables every schema has are shared (libs/shared/persistence/migrations).
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
