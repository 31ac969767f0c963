-- policy-registry: intentions (= purposes), intent cards and per-org change counters.
-- The outbox and processed-event tables every schema has are shared (libs/shared/persistence/migrations).
CREATE TABLE "intentions" (
  "id" TEXT NOT NULL PRIMARY KEY,
  "org_id" TEXT NOT NULL,
  "label" TEXT NOT NULL,
  "display_name" TEXT NOT NULL,
  "description" TEXT NOT NULL,
  "intent_class" TEXT NOT NULL,
  "status" TEXT NOT NULL,
  "approval_required" BOOLEAN NOT NULL,
  "ttl_minutes" INTEGER NOT NULL,
  "data_elements" JSONB NOT NULL,
  "version" INTEGER NOT NULL,
  "created_at" TIMESTAMPTZ(3) NOT NULL,
  "updated_at" TIMESTAMPTZ(3) NOT NULL
);
CREATE UNIQUE INDEX "intentions_org_id_label_key" ON "intentions" ("org_id", "label");
CREATE INDEX "intentions_org_id_created_at_id_idx" ON "intentions" ("org_id", "created_at" DESC, "id" DESC);
CREATE INDEX "intentions_org_id_status_created_at_id_idx" ON "intentions" ("org_id", "status", "created_at" DESC, "id" DESC);

CREATE TABLE "intent_cards" (
  "org_id" TEXT NOT NULL,
  "id" TEXT NOT NULL,
  "name" TEXT NOT NULL,
  "description" TEXT NOT NULL,
  "allowed_scope" JSONB NOT NULL,
  "audiences" TEXT[],
  "max_ttl_seconds" INTEGER NOT NULL,
  "shadow" BOOLEAN NOT NULL,
  "rules" JSONB NOT NULL,
  "version" INTEGER NOT NULL,
  "created_at" TIMESTAMPTZ(3) NOT NULL,
  "updated_at" TIMESTAMPTZ(3) NOT NULL,
  CONSTRAINT "intent_cards_pkey" PRIMARY KEY ("org_id", "id")
);
CREATE INDEX "intent_cards_org_id_created_at_id_idx" ON "intent_cards" ("org_id", "created_at" DESC, "id" DESC);

CREATE TABLE "org_versions" (
  "org_id" TEXT NOT NULL PRIMARY KEY,
  "intentions_version" INTEGER NOT NULL DEFAULT 0,
  "cards_version" INTEGER NOT NULL DEFAULT 0,
  "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT now()
);
