-- The first-run setup gains the chart of accounts as its second step (docs/decisions/0102-chart-of-accounts-screen.md):
-- currencies 0, chart 1, accounts 2, categories 3, done 4. A setup left at the accounts step or later
-- resumes where it was, one number up.
UPDATE "tenant_settings" SET "setup_step" = "setup_step" + 1 WHERE "setup_step" >= 1;
