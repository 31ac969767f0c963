-- A per-org counter of webhook subscription changes (create, delete, disable), bumped in the same
-- transaction and advanced on the version board after commit, so every dispatcher replica can keep
-- "which event types does this org want" in memory and skip the database for the others.
CREATE TABLE "org_webhook_versions" (
  "org_id" TEXT NOT NULL PRIMARY KEY,
  "version" INTEGER NOT NULL
);
INSERT INTO "org_webhook_versions" ("org_id", "version") SELECT "org_id", 1 FROM "webhooks" GROUP BY "org_id";
