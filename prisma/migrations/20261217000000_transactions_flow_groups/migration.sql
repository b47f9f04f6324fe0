-- The cash flow sums a period's ledger per origin, destination, period and type (decision 0106).
-- Without statistics of how many such groups there are, PostgreSQL multiplies the columns' own
-- distinct counts (accounts × accounts × days × types), expects about as many groups as rows, and
-- sorts the whole period's ledger (on disk, over 1,000,000 rows) instead of hashing it into the few
-- thousand groups there are. The combined distinct count, gathered by ANALYZE, lets it hash.
CREATE STATISTICS transactions_flow_groups (ndistinct)
  ON origin_account_id, destination_account_id, date, type FROM transactions;
