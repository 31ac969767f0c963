-- intent-evaluator: intent events.
-- The outbox and processed-event tables every schema has are shared (libs/shared/persistence/migrations).
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
