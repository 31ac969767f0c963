-- approvals: why a legacy-path request waits and the call it holds (DESIGN 6.15), so an operator
-- sees it and `remember` can teach it. Mandate-path requests keep null / [].
ALTER TABLE "approval_requests"
  ADD COLUMN "reason_code" TEXT,
  ADD COLUMN "candidates" JSONB NOT NULL DEFAULT '[]',
  ADD COLUMN "tool_call" JSONB,
  ADD COLUMN "conversation_context" JSONB,
  -- The one decision with `remember` teaching the registry, and until when (a lease): deciders who
  -- remember are serialised, so a losing decision never forgets what the winner taught.
  ADD COLUMN "teaching_key_id" TEXT,
  ADD COLUMN "teaching_until" TIMESTAMPTZ(3),
  ADD CONSTRAINT "approval_requests_reason_code_check" CHECK ("reason_code" IN ('approval_required', 'uncertain_match'));
-- Every evaluate request before this waited because its intention required approval.
UPDATE "approval_requests" SET "reason_code" = 'approval_required' WHERE "source" = 'evaluate';
