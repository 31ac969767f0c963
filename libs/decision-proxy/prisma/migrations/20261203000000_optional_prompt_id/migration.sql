-- decision-proxy: a decision made under a mandate bound to no prompt (DESIGN 6.8) records NULL.
ALTER TABLE "decisions" ALTER COLUMN "prompt_id" DROP NOT NULL;
