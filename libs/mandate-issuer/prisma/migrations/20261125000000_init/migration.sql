-- mandate-issuer: RSA signing keys, mandates.
-- The outbox and processed-event tables every schema has are shared (libs/shared/persistence/migrations).
CREATE TABLE "signing_keys" (
  "kid" TEXT NOT NULL PRIMARY KEY,
  "public_jwk" JSONB NOT NULL,
  "private_key_enc" TEXT NOT NULL,
  "kek_id" TEXT NOT NULL,
  "created_at" TIMESTAMPTZ(3) NOT NULL,
  "activates_at" TIMESTAMPTZ(3) NOT NULL,
  "retired_at" TIMESTAMPTZ(3),
  "last_expiry" TIMESTAMPTZ(3)
);

CREATE TABLE "mandates" (
  "cred_id" TEXT NOT NULL PRIMARY KEY,
  "org_id" TEXT NOT NULL,
  "actor" TEXT NOT NULL,
  "intent_id" TEXT NOT NULL,
  "prompt_id" TEXT NOT NULL,
  "audience" TEXT NOT NULL,
  "scope" JSONB NOT NULL,
  "context" JSONB NOT NULL,
  "acr" TEXT,
  "kid" TEXT NOT NULL,
  "issued_at" TIMESTAMPTZ(3) NOT NULL,
  "expires_at" TIMESTAMPTZ(3) NOT NULL,
  "status" TEXT NOT NULL,
  "revoked_at" TIMESTAMPTZ(3),
  "revoke_reason" TEXT,
  "refresh_count" INTEGER NOT NULL DEFAULT 0,
  "last_refreshed_at" TIMESTAMPTZ(3),
  "broker" JSONB,
  "broker_revocation_enc" TEXT,
  "classification_evidence" JSONB,
  CONSTRAINT "mandates_status_check" CHECK ("status" IN ('active', 'revoked'))
);
CREATE INDEX "mandates_org_id_issued_at_cred_id_idx" ON "mandates" ("org_id", "issued_at" DESC, "cred_id" DESC);
CREATE INDEX "mandates_status_expires_at_idx" ON "mandates" ("status", "expires_at");
