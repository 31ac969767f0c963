-- The calls mandate-path decisions decided, kept for CALL_RETENTION_DAYS (DESIGN 6.16): the
-- decision list can show them (include=call) and replay of card drafts reads them. A row is
-- written in the same statement as its decision and outbox row and deleted by the retention
-- purge; the decision itself stays (its arguments only as their sha256).
CREATE TABLE "decision_calls" (
  "id" TEXT NOT NULL PRIMARY KEY,
  "org_id" TEXT NOT NULL,
  "action" JSONB NOT NULL,
  "context" JSONB,
  "created_at" TIMESTAMPTZ(3) NOT NULL
);
-- The purge deletes by age across orgs; reads walk one org's window newest first.
CREATE INDEX "decision_calls_created_at_idx" ON "decision_calls" ("created_at");
CREATE INDEX "decision_calls_org_id_created_at_id_idx" ON "decision_calls" ("org_id", "created_at" DESC, "id" DESC);
