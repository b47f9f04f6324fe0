import { registerPermissions } from "@hisob/kernel";

// The spec's table ("Permissions") plus what the ledger's own routes need; the README maps routes to them.
export const FINANCE_PERMISSIONS = registerPermissions("finance", {
  "payments:create:all": "Create payments",
  "payments:read:all": "Read every payment",
  "payments:read:own": "Read payments one created",
  "payments:update:all": "Update payments",
  "payments:delete:all": "Delete payments",
  "expenses:create:all": "Record expenses",
  "expenses:read:all": "Read every expense",
  "expenses:read:own": "Read expenses one recorded",
  "expenses:update:all": "Update expenses",
  "expenses:delete:all": "Delete expenses",
  "accounts:create:all": "Create money accounts",
  "accounts:read:all": "Read money accounts and their transactions",
  "accounts:update:all": "Update money accounts",
  "accounts:delete:all": "Delete money accounts that have no transactions",
  "accounts:reconcile:all": "Recompute every balance from its transactions and list any drift",
  "transfers:create:all": "Transfer money between accounts of one currency",
  "exchanges:create:all": "Exchange money between accounts of different currencies",
  "debts:create:all": "Create debts",
  "debts:read:all": "Read debts",
  "debts:update:all": "Update, settle and write off debts",
  "debts:delete:all": "Delete debts",
  "reports:read:all": "Read financial reports",
  "reports:create:all": "Generate financial reports",
});
