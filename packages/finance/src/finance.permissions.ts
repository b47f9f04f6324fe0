import { registerPermissions } from "@hisob/kernel";

// The spec's table ("Permissions"); the finance issues add the rest of the module's permissions.
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
  "accounts:read:all": "Read money accounts",
  "accounts:update:all": "Update money accounts",
  "accounts:delete:all": "Delete money accounts",
  "debts:create:all": "Create debts",
  "debts:read:all": "Read debts",
  "debts:update:all": "Update, settle and write off debts",
  "debts:delete:all": "Delete debts",
  "reports:read:all": "Read financial reports",
  "reports:create:all": "Generate financial reports",
});
