-- approvals: approval requests.
-- The outbox and processed-event tables every schema has are shared (libs/shared/persistence/migrations).
CREATE TABLE "approval_requests" (
  "id" TEXT NOT NULL PRIMARY KEY,
  "org_id" TEXT NOT NULL,
  "status" TEXT NOT NULL,
  "source" TEXT NOT NULL,
  "intent_label" TEXT,
  "intent_card_id" TEXT,
  "tool_name" TEXT,
  "operation" TEXT,
  "summary" TEXT NOT NULL,
  "requested_by_key_id" TEXT NOT NULL,
  "user_id" TEXT,
  "fingerprint" TEXT NOT NULL,
  "created_at" TIMESTAMPTZ(3) NOT NULL,
  "expires_at" TIMESTAMPTZ(3) NOT NULL,
  "decided_at" TIMESTAMPTZ(3),
  "decided_by_key_id" TEXT,
  "reason" TEXT,
  "consumed_at" TIMESTAMPTZ(3),
  CONSTRAINT "approval_requests_status_check" CHECK ("status" IN ('pending', 'approved', 'denied', 'expired')),
  CONSTRAINT "approval_requests_source_check" CHECK ("source" IN ('evaluate', 'mcp_proxy'))
);
-- Lists: newest first, optionally by status.
CREATE INDEX "approval_requests_org_id_created_at_id_idx" ON "approval_requests" ("org_id", "created_at" DESC, "id" DESC);
CREATE INDEX "approval_requests_org_id_status_created_at_id_idx" ON "approval_requests" ("org_id", "status", "created_at" DESC, "id" DESC);
-- Consume: the approved request of one call.
CREATE INDEX "approval_requests_org_id_fingerprint_status_idx" ON "approval_requests" ("org_id", "fingerprint", "status");
-- Sweeper: pending requests by deadline, across orgs.
CREATE INDEX "approval_requests_pending_expiry_idx" ON "approval_requests" ("expires_at") WHERE "status" = 'pending';
