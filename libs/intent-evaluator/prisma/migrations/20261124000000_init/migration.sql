-- intent-evaluator: intent events, plus the outbox and processed-event tables every service has.
CREATE TABLE "intent_events" (
  "id" TEXT NOT NULL PRIMARY KEY,
  "org_id" TEXT NOT NULL,
  "outcome" TEXT NOT NULL,
  "intent_label" TEXT NOT NULL,
  "intent_class" TEXT NOT NULL,
  "confidence" DOUBLE PRECISION NOT NULL,
  "tool_name" TEXT NOT NULL,
  "user_id" TEXT,
  "session_id" TEXT,
  "conversation_id" TEXT,
  "shadow_mode" BOOLEAN NOT NULL,
  "policy_id" TEXT NOT NULL,
  "approval_request_id" TEXT,
  "data_elements" TEXT[] NOT NULL,
  "processing_time_ms" INTEGER NOT NULL,
  "classification_evidence" JSONB NOT NULL,
  "grant_jti" TEXT,
  "created_at" TIMESTAMPTZ(3) NOT NULL,
  CONSTRAINT "intent_events_outcome_check" CHECK ("outcome" IN ('allowed', 'denied', 'pending_approval', 'approved', 'shadow_denied'))
);
-- History: newest first, optionally by outcome (keyset over created_at, id).
CREATE INDEX "intent_events_org_id_created_at_id_idx" ON "intent_events" ("org_id", "created_at" DESC, "id" DESC);
CREATE INDEX "intent_events_org_id_outcome_created_at_id_idx" ON "intent_events" ("org_id", "outcome", "created_at" DESC, "id" DESC);

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
