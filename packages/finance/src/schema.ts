/*
 * The browser-safe schemas of finance: zod only, shared by the server and the apps. Nothing here may
 * import a service, Prisma, exceljs or Node (a test bundles this entry for the browser).
 */

// Dates and quantities live in the kernel (hrm, projects and warehouse use them too); re-exported for
// the apps that import them from here.
export {
  dateOf,
  datesInOrder,
  FIRST_DATE,
  LAST_DATE,
  negateQuantity,
  normalizeQuantity,
  periodInOrder,
  QUANTITY_SCALE,
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
export * from "./exports/export-queries.schema";
export * from "./general-ledger/general-ledger.schema";
export * from "./general-ledger/ledger-reports.schema";
export * from "./inventory/inventory.schema";
export * from "./journal/journal.schema";
export { multiplyRate, multiplyRateWithin } from "./journal/rate";
export * from "./ledger/ledger.schema";
export * from "./payments-expenses/payments-expenses.schema";
export * from "./reconcile/reconcile.schema";
export * from "./reports/reports.schema";
export * from "./transfers/rates";
export * from "./transfers/transfers.schema";
export { naturalQuoteBase } from "./transfers/typical-rates";
