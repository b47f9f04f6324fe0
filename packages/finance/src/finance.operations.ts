import { accountsOperations, transactionsOperations } from "./accounts/accounts.operations";
import { expenseCategoriesOperations, paymentCategoriesOperations } from "./categories/categories.operations";
import { counterpartiesOperations } from "./counterparties/counterparties.operations";
import { debtsOperations } from "./debts/debts.operations";
import { exportsOperations } from "./exports/exports.operations";
import { generalLedgerOperations } from "./general-ledger/general-ledger.operations";
import { inventoryOperations } from "./inventory/inventory.operations";
import { journalOperations } from "./journal/journal.operations";
import { expensesOperations, paymentsOperations } from "./payments-expenses/payments-expenses.operations";
import { periodsOperations } from "./periods/periods.operations";
import { reconcileOperations } from "./reconcile/reconcile.operations";
import { reportsOperations } from "./reports/reports.operations";
import { exchangesOperations, transfersOperations } from "./transfers/transfers.operations";

/**
 * Every finance operation, keyed the way the tRPC router nests them (`payments.create`). REST
 * routes, tRPC procedures and the README's route tables are derived from this object: adding an
 * operation is one entry here (in its feature's `*.operations.ts`) plus its service method.
 */
export const financeOperations = {
  accounts: accountsOperations,
  transactions: transactionsOperations,
  payments: paymentsOperations,
  expenses: expensesOperations,
  transfers: transfersOperations,
  exchanges: exchangesOperations,
  counterparties: counterpartiesOperations,
  paymentCategories: paymentCategoriesOperations,
  expenseCategories: expenseCategoriesOperations,
  debts: debtsOperations,
  inventory: inventoryOperations,
  reports: reportsOperations,
  exports: exportsOperations,
  reconcile: reconcileOperations,
  periods: periodsOperations,
  generalLedger: generalLedgerOperations,
  journal: journalOperations,
};
