-- decision-proxy: the upstream MCP servers an org registered (DESIGN 6.13, `/v1/mcp-servers`).
-- The forwarded headers are sealed (AES-256-GCM under the proxy's KEK, additional data = the
-- server id); only their names are kept in clear. `kek_id` names the KEK that sealed them.
CREATE TABLE "mcp_servers" (
  "id" TEXT NOT NULL PRIMARY KEY,
  "org_id" TEXT NOT NULL,
  "name" TEXT NOT NULL,
  "url" TEXT NOT NULL,
  "headers_sealed" TEXT,
  "header_names" JSONB NOT NULL DEFAULT '[]'::jsonb,
  "shadow" BOOLEAN NOT NULL DEFAULT false,
  "kek_id" TEXT,
  "created_at" TIMESTAMPTZ(3) NOT NULL,
  CONSTRAINT "mcp_servers_org_id_name_key" UNIQUE ("org_id", "name")
);

-- Newest-first keyset pages per org.
CREATE INDEX "mcp_servers_org_id_created_at_id_idx" ON "mcp_servers" ("org_id", "created_at" DESC, "id" DESC);
