-- A ledger entry knows the payment or expense it posts. An account statement shows it on every entry,
-- and looking it up through payments.transaction_id / expenses.transaction_id was an index probe per
-- entry: 500 per page, about as long as reading the page itself. The document's `transaction_id` stays
-- the source of truth (unique, with its foreign key); `document_id` is its copy on the entry, written by
-- the one statement that posts both (packages/finance/src/ledger/post-document.ts). Neither is ever
-- re-pointed: an edited document keeps its entry, a deleted one takes its entry with it.
ALTER TABLE transactions ADD COLUMN document_id uuid;
ALTER TABLE transactions ADD CONSTRAINT transactions_document_check
  CHECK (document_id IS NULL OR type IN ('income', 'expense'));

-- What is already posted. Row-level security binds the owner too, so the owner lifts it on the three
-- tables for these statements and restores it in the same migration transaction; the balance
-- checkpoints' update trigger is off for them (no amount, date or account changes).
ALTER TABLE transactions NO FORCE ROW LEVEL SECURITY;
ALTER TABLE payments NO FORCE ROW LEVEL SECURITY;
ALTER TABLE expenses NO FORCE ROW LEVEL SECURITY;
ALTER TABLE transactions DISABLE TRIGGER transactions_day_totals_update;
UPDATE transactions t SET document_id = p.id
  FROM payments p WHERE p.tenant_id = t.tenant_id AND p.transaction_id = t.id;
UPDATE transactions t SET document_id = e.id
  FROM expenses e WHERE e.tenant_id = t.tenant_id AND e.transaction_id = t.id;
ALTER TABLE transactions ENABLE TRIGGER transactions_day_totals_update;
ALTER TABLE expenses FORCE ROW LEVEL SECURITY;
ALTER TABLE payments FORCE ROW LEVEL SECURITY;
ALTER TABLE transactions FORCE ROW LEVEL SECURITY;
