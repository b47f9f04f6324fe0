import type { Db, Outbox } from "@hisob/db";
import { type Clock, systemClock } from "@hisob/kernel";
import { createAccountsService } from "./accounts/accounts.service";
import { createOpeningBalancesService } from "./accounts/opening-balance.service";
import { createCategoriesService, EXPENSE_CATEGORY, PAYMENT_CATEGORY } from "./categories/categories.service";
import { createCounterpartiesService } from "./counterparties/counterparties.service";
import { createDebtsService } from "./debts/debts.service";
import { createFinanceExports } from "./exports/exports.service";
import { createGeneralLedgerService } from "./general-ledger/general-ledger.service";
import { createInventoryService } from "./inventory/inventory.service";
import { createJournalService } from "./journal/journal.service";
import {
  createPaymentsExpensesService,
  EXPENSE,
  PAYMENT,
} from "./payments-expenses/payments-expenses.service";
import { createPeriodsService } from "./periods/periods.service";
import { createReconcileService } from "./reconcile/reconcile.service";
import { createReportsService } from "./reports/reports.service";
import { createTransfersService } from "./transfers/transfers.service";

export type FinanceServiceDeps = { db: Db; outbox: Outbox; clock?: Clock };

/** The finance module's services, shared by every transport (REST, GraphQL, tRPC). */
export const createFinanceServices = (deps: FinanceServiceDeps) => {
  const clock = deps.clock ?? systemClock;
  const { db, outbox } = deps;
  const reports = createReportsService({ db });
  const payments = createPaymentsExpensesService(PAYMENT, { db, outbox, clock });
  const expenses = createPaymentsExpensesService(EXPENSE, { db, outbox, clock });
  const generalLedger = createGeneralLedgerService({ db, clock });
  return {
    accounts: createAccountsService({ db, clock }),
    openingBalances: createOpeningBalancesService({ db, clock }),
    payments,
    expenses,
    transfers: createTransfersService({ db, outbox, clock }),
    reconcile: createReconcileService({ db, clock }),
    reports,
    exports: createFinanceExports({ db, clock, reports, generalLedger }),
    counterparties: createCounterpartiesService({ db, outbox, clock }),
    paymentCategories: createCategoriesService(PAYMENT_CATEGORY, { db, clock }),
    expenseCategories: createCategoriesService(EXPENSE_CATEGORY, { db, clock }),
    debts: createDebtsService({ db, outbox, payments, expenses, clock }),
    inventory: createInventoryService({ db, outbox, clock }),
    periods: createPeriodsService({ db, clock }),
    generalLedger,
    journal: createJournalService({ db, clock }),
  };
};

export type FinanceServices = ReturnType<typeof createFinanceServices>;
