export {
  dateOf,
  normalizeQuantity,
  toIsoDate,
  ZIsoDate,
  ZQuantity,
  ZQuantityChange,
} from "@hisob/kernel/schema";
export * from "./accounts/accounts.schema";
export * from "./accounts/opening-balance.schema";
export * from "./categories/categories.schema";
export * from "./counterparties/counterparties.schema";
export * from "./debts/debts.schema";
export {
  ZExportAccountsQuery,
  ZExportAccountTransactionsQuery,
  ZExportDocumentsQuery,
} from "./exports/lists.export";
export {
  ZExportCounterpartiesQuery,
  ZExportDebtsQuery,
  ZExportInventoryQuery,
} from "./exports/records.export";
export type { PreparedExport } from "./exports/sheet-helpers";
export { financeOperations } from "./finance.operations";
export type { FinancePermission } from "./finance.permissions";
export { FINANCE_PERMISSIONS } from "./finance.permissions";
export { createFinanceServices, type FinanceServiceDeps, type FinanceServices } from "./finance-services";
export * from "./general-ledger/general-ledger.schema";
export * from "./general-ledger/ledger-reports.schema";
export * from "./inventory/inventory.schema";
export * from "./journal/journal.schema";
export * from "./ledger/ledger.schema";
export * from "./payments-expenses/payments-expenses.schema";
export * from "./periods/periods.schema";
export * from "./reconcile/reconcile.schema";
export * from "./reports/reports.schema";
export * from "./transfers/rates";
export * from "./transfers/transfers.schema";
