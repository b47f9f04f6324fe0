import { ZAccountDto, ZCurrencyDto } from "@hisob/core";
import {
  ZAccountStatement,
  ZAccountStatementQuery,
  ZAccountTransactionDto,
  ZCashflowQuery,
  ZCashflowReport,
  ZCreateDocumentInput,
  ZCreateMoneyAccountInput,
  ZExchangeInput,
  ZExpenseDto,
  ZIncomeStatement,
  ZIncomeStatementQuery,
  ZListAccountTransactionsQuery,
  ZListDocumentsQuery,
  ZListMoneyAccountsQuery,
  ZMoneyAccountDto,
  ZPaymentDto,
  ZReconcileReport,
  ZTransactionDto,
  ZTransferInput,
  ZUpdateDocumentInput,
  ZUpdateMoneyAccountInput,
} from "@hisob/finance";
import { ZPage } from "@hisob/kernel";
import { z } from "zod";
import { type ApiServices, authed, router } from "./trpc";

/*
 * The accountant app's API. Inputs and outputs are the REST routes' zod schemas; every procedure
 * calls the same service method as its REST route (which checks permissions and parses again).
 */

const ZId = z.object({ id: z.uuid() });
const withId = <S extends z.ZodType>(data: S) => z.object({ id: z.uuid(), data });

/** list / get / create / update / delete over one payments-or-expenses service. */
const documentProcedures = (
  pick: (services: ApiServices) => ApiServices["finance"]["payments"],
  dto: typeof ZPaymentDto,
) =>
  router({
    list: authed
      .input(ZListDocumentsQuery)
      .output(ZPage(dto))
      .query(({ ctx, input }) => pick(ctx.services).list(ctx.caller, input)),
    get: authed
      .input(ZId)
      .output(dto)
      .query(({ ctx, input }) => pick(ctx.services).get(ctx.caller, input.id)),
    create: authed
      .input(ZCreateDocumentInput)
      .output(dto)
      .mutation(({ ctx, input }) => pick(ctx.services).create(ctx.caller, input)),
    update: authed
      .input(withId(ZUpdateDocumentInput))
      .output(dto)
      .mutation(({ ctx, input }) => pick(ctx.services).update(ctx.caller, input.id, input.data)),
    delete: authed
      .input(ZId)
      .output(z.null())
      .mutation(async ({ ctx, input }) => {
        await pick(ctx.services).delete(ctx.caller, input.id);
        return null;
      }),
  });

export const appRouter = router({
  session: router({
    /** The signed-in user: name, language, roles and effective permissions. */
    me: authed.output(ZAccountDto).query(({ ctx }) => ctx.services.account.get(ctx.caller)),
  }),
  currencies: router({
    /** The organization's currencies (what accounts may use). */
    selected: authed
      .output(z.array(ZCurrencyDto))
      .query(({ ctx }) => ctx.services.currencies.listSelected(ctx.caller)),
  }),
  accounts: router({
    list: authed
      .input(ZListMoneyAccountsQuery)
      .output(ZPage(ZMoneyAccountDto))
      .query(({ ctx, input }) => ctx.services.finance.accounts.list(ctx.caller, input)),
    get: authed
      .input(ZId)
      .output(ZMoneyAccountDto)
      .query(({ ctx, input }) => ctx.services.finance.accounts.get(ctx.caller, input.id)),
    create: authed
      .input(ZCreateMoneyAccountInput)
      .output(ZMoneyAccountDto)
      .mutation(({ ctx, input }) => ctx.services.finance.accounts.create(ctx.caller, input)),
    update: authed
      .input(withId(ZUpdateMoneyAccountInput))
      .output(ZMoneyAccountDto)
      .mutation(({ ctx, input }) => ctx.services.finance.accounts.update(ctx.caller, input.id, input.data)),
    delete: authed
      .input(ZId)
      .output(z.null())
      .mutation(async ({ ctx, input }) => {
        await ctx.services.finance.accounts.delete(ctx.caller, input.id);
        return null;
      }),
  }),
  transactions: router({
    /** An account's ledger entries (the same as GET /finance/accounts/:id/transactions). */
    list: authed
      .input(z.object({ accountId: z.uuid(), query: ZListAccountTransactionsQuery.optional() }))
      .output(ZPage(ZAccountTransactionDto))
      .query(({ ctx, input }) =>
        ctx.services.finance.accounts.transactions(ctx.caller, input.accountId, input.query ?? {}),
      ),
  }),
  payments: documentProcedures((services) => services.finance.payments, ZPaymentDto),
  expenses: documentProcedures((services) => services.finance.expenses, ZExpenseDto),
  transfers: router({
    create: authed
      .input(ZTransferInput)
      .output(ZTransactionDto)
      .mutation(({ ctx, input }) => ctx.services.finance.transfers.transfer(ctx.caller, input)),
  }),
  exchanges: router({
    create: authed
      .input(ZExchangeInput)
      .output(ZTransactionDto)
      .mutation(({ ctx, input }) => ctx.services.finance.transfers.exchange(ctx.caller, input)),
  }),
  reports: router({
    incomeStatement: authed
      .input(ZIncomeStatementQuery)
      .output(ZIncomeStatement)
      .query(({ ctx, input }) => ctx.services.finance.reports.incomeStatement(ctx.caller, input)),
    cashflow: authed
      .input(ZCashflowQuery)
      .output(ZCashflowReport)
      .query(({ ctx, input }) => ctx.services.finance.reports.cashflow(ctx.caller, input)),
    accountStatement: authed
      .input(z.object({ accountId: z.uuid(), query: ZAccountStatementQuery }))
      .output(ZAccountStatement)
      .query(({ ctx, input }) =>
        ctx.services.finance.reports.accountStatement(ctx.caller, input.accountId, input.query),
      ),
  }),
  reconcile: router({
    run: authed
      .output(ZReconcileReport)
      .query(({ ctx }) => ctx.services.finance.reconcile.reconcile(ctx.caller)),
  }),
});

/** The accountant app imports this type (never the code) to get a fully typed client. */
export type AppRouter = typeof appRouter;
