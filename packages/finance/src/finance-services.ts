import type { Db, Outbox } from "@hisob/db";
import { type Clock, systemClock } from "@hisob/kernel";
import { createAccountsService } from "./accounts/accounts.service";
import { createDocumentsService, EXPENSE, PAYMENT } from "./documents/documents.service";
import { createReconcileService } from "./reconcile/reconcile.service";
import { createReportsService } from "./reports/reports.service";
import { createTransfersService } from "./transfers/transfers.service";

export type FinanceServiceDeps = { db: Db; outbox: Outbox; clock?: Clock };

/** The finance module's services, shared by every transport (REST, GraphQL, tRPC). */
export const createFinanceServices = (deps: FinanceServiceDeps) => {
  const clock = deps.clock ?? systemClock;
  const { db, outbox } = deps;
  return {
    accounts: createAccountsService({ db, clock }),
    payments: createDocumentsService(PAYMENT, { db, outbox, clock }),
    expenses: createDocumentsService(EXPENSE, { db, outbox, clock }),
    transfers: createTransfersService({ db, outbox, clock }),
    reconcile: createReconcileService({ db, clock }),
    reports: createReportsService({ db }),
  };
};

export type FinanceServices = ReturnType<typeof createFinanceServices>;
