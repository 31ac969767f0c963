-- The version each removed intent card's removal had: installing the id again goes on from it,
-- so no version of an id ever names two contents (readers cache compiled cards by id@version).
CREATE TABLE "intent_card_removals" (
  "org_id" TEXT NOT NULL,
  "id" TEXT NOT NULL,
  "version" INTEGER NOT NULL,
  PRIMARY KEY ("org_id", "id")
);
