export * from "./accounts/accounts.schema";
export { dateOf, toIsoDate, ZIsoDate } from "./dates";
export * from "./documents/documents.schema";
export { FINANCE_PERMISSIONS } from "./finance.permissions";
export { createFinanceServices, type FinanceServiceDeps, type FinanceServices } from "./finance-services";
export * from "./ledger/ledger.schema";
export * from "./reconcile/reconcile.schema";
export * from "./reports/reports.schema";
export * from "./transfers/transfers.schema";
