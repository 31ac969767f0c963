-- The calls evaluations decided, kept for CALL_RETENTION_DAYS (DESIGN 6.16): history can show
-- them (include=call) and an operator can teach from them. A row is written in the same statement
-- as its event and deleted by the retention purge; the event itself stays.
CREATE TABLE "intent_calls" (
  "id" TEXT NOT NULL PRIMARY KEY,
  "org_id" TEXT NOT NULL,
  "tool_name" TEXT NOT NULL,
  "arguments" JSONB,
  "conversation_context" JSONB,
  "created_at" TIMESTAMPTZ(3) NOT NULL
);
-- The purge deletes by age across orgs; reads walk one org's window newest first.
CREATE INDEX "intent_calls_created_at_idx" ON "intent_calls" ("created_at");
CREATE INDEX "intent_calls_org_id_created_at_id_idx" ON "intent_calls" ("org_id", "created_at" DESC, "id" DESC);
