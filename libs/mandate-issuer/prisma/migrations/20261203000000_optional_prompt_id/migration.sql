-- mandate-issuer: prompt_id is optional at dispense (DESIGN 6.8). NULL: the mandate is bound to no
-- prompt; its JWT carries no prompt_id claim.
ALTER TABLE "mandates" ALTER COLUMN "prompt_id" DROP NOT NULL;
