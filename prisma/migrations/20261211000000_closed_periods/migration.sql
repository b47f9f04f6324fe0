-- Closed periods (docs/decisions/0094-closed-periods.md): the day through which a tenant's books are
-- closed. On the tenant row, which every tenant has: a posting locks it FOR KEY SHARE while it checks the
-- date, and moving the lock takes it FOR UPDATE, so a posting and a lock move never pass each other.
ALTER TABLE "tenants" ADD COLUMN "books_closed_through" DATE;
