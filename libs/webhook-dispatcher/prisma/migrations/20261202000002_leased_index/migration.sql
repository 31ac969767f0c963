-- Attempts under way per webhook (the claim's fairness cap): only leased pending rows, a handful.
CREATE INDEX "webhook_deliveries_leased_idx" ON "webhook_deliveries" ("webhook_id") WHERE "status" = 'pending' AND "lease_until" IS NOT NULL;
