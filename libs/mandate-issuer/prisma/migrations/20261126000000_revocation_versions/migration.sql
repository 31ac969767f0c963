-- mandate-issuer: a per-org revocation counter. Every transition of a mandate to revoked bumps its
-- org's counter in the same transaction and stores the new value on the mandate, so a verifier that
-- has applied revocations up to version N asks for `revocation_seq > N` and misses none.
CREATE TABLE "org_revocation_versions" (
  "org_id" TEXT NOT NULL PRIMARY KEY,
  "version" INTEGER NOT NULL DEFAULT 0,
  "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT now()
);

ALTER TABLE "mandates" ADD COLUMN "revocation_seq" INTEGER;

-- Mandates revoked before this migration: numbered per org in revocation order, counters set to match.
UPDATE "mandates" AS m SET "revocation_seq" = r."seq"
  FROM (SELECT "cred_id", row_number() OVER (PARTITION BY "org_id" ORDER BY "revoked_at", "cred_id")::int AS "seq" FROM "mandates" WHERE "status" = 'revoked') AS r
  WHERE m."cred_id" = r."cred_id";
INSERT INTO "org_revocation_versions" ("org_id", "version", "updated_at")
  SELECT "org_id", max("revocation_seq"), now() FROM "mandates" WHERE "revocation_seq" IS NOT NULL GROUP BY "org_id";

-- A revoked mandate always has its number (a verifier catching up could otherwise miss it), an active one none.
ALTER TABLE "mandates" ADD CONSTRAINT "mandates_revocation_seq_check" CHECK (("status" = 'revoked') = ("revocation_seq" IS NOT NULL));
CREATE INDEX "mandates_org_id_revocation_seq_idx" ON "mandates" ("org_id", "revocation_seq");
