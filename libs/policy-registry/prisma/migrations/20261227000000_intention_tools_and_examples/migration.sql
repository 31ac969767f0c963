-- Tool bindings and examples of intentions (DESIGN 6.15).
-- An intention's tools: the tool-name patterns it covers exactly ([] = the classifier decides).
ALTER TABLE "intentions" ADD COLUMN "tools" JSONB NOT NULL DEFAULT '[]';

-- Calls an intention covers (covered) or never matches, added by hand or taught from an approval.
-- Examples change the org's intentions counter (org_versions.intentions_version) like intentions do.
CREATE TABLE "intention_examples" (
  "id" TEXT NOT NULL PRIMARY KEY,
  "org_id" TEXT NOT NULL,
  "intention_id" TEXT NOT NULL,
  "tool_call" JSONB NOT NULL,
  "conversation_context" JSONB,
  "covered" BOOLEAN NOT NULL,
  "source" TEXT NOT NULL,
  "approval_id" TEXT,
  "created_at" TIMESTAMPTZ(3) NOT NULL
);
CREATE INDEX "intention_examples_org_id_intention_id_created_at_id_idx" ON "intention_examples" ("org_id", "intention_id", "created_at" DESC, "id" DESC);
-- teach is idempotent on the approval (manual examples have no approval_id: NULLs never collide).
CREATE UNIQUE INDEX "intention_examples_org_id_approval_id_intention_id_key" ON "intention_examples" ("org_id", "approval_id", "intention_id");
