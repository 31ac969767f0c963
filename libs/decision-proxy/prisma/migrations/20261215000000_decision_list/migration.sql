-- GET /v1/mcp-proxy/decisions lists an org's decisions newest first (keyset over created_at,
-- decision_id); the mandate, kind and time filters narrow that walk. One index more on every
-- decision insert: the price of the list operators and auditors page through.
CREATE INDEX "decisions_org_created_idx" ON "decisions" ("org_id", "created_at" DESC, "decision_id" DESC);
