import { XLSX_CONTENT_TYPE, ZAccountDto, ZCurrencyDto, ZUpdateAccountInput } from "@hisob/core";
import {
  ZAccountStatement,
  ZAccountStatementExportQuery,
  ZAccountStatementQuery,
  ZAccountTransactionDto,
  ZCashflowQuery,
  ZCashflowReport,
  ZCounterpartyDto,
  ZCreateCategoryInput,
  ZCreateCounterpartyInput,
  ZCreateDebtInput,
  ZCreateDocumentInput,
  ZCreateInventoryItemInput,
  ZCreateInventoryMovementInput,
  ZCreateMoneyAccountInput,
  ZDebtDetailDto,
  ZDebtDto,
  ZDebtSettlementResult,
  ZExchangeInput,
  ZExpenseCategoryDto,
  ZExpenseDto,
  ZExportAccountsQuery,
  ZExportAccountTransactionsQuery,
  ZExportCounterpartiesQuery,
  ZExportDebtsQuery,
  ZExportDocumentsQuery,
  ZExportInventoryQuery,
  ZIncomeStatement,
  ZIncomeStatementQuery,
  ZInventoryItemDto,
  ZInventoryMovementDto,
  ZInventoryMovementResult,
  ZListAccountTransactionsQuery,
  ZListCategoriesQuery,
  ZListCounterpartiesQuery,
  ZListDebtsQuery,
  ZListDocumentsQuery,
  ZListInventoryMovementsQuery,
  ZListInventoryQuery,
  ZListMoneyAccountsQuery,
  ZMoneyAccountDto,
  ZOpeningBalanceDto,
  ZPaymentCategoryDto,
  ZPaymentDto,
  ZReconcileReport,
  ZSetOpeningBalanceInput,
  ZSettleDebtInput,
  ZTransactionDto,
  ZTransferInput,
  ZUpdateCategoryInput,
  ZUpdateCounterpartyInput,
  ZUpdateDebtInput,
  ZUpdateDocumentInput,
  ZUpdateInventoryItemInput,
  ZUpdateMoneyAccountInput,
  ZWriteOffDebtInput,
} from "@hisob/finance";
import { type TenantContext, ZPage } from "@hisob/kernel";
import { z } from "zod";
import { type ApiServices, authed, router } from "./trpc";

/*
 * The accountant app's API. Inputs and outputs are the REST routes' zod schemas; every procedure
 * calls the same service method as its REST route (which checks permissions and parses again).
 */

const ZId = z.object({ id: z.uuid() });
const withId = <S extends z.ZodType>(data: S) => z.object({ id: z.uuid(), data });

/**
 * The five procedures of a resource over its service. The service parses its input itself (the
 * procedure's schema is the wire contract and the client's types); its parameters and results are
 * typed loosely here, once (`as never`), so one builder serves every resource: the client's types
 * come from the schemas, and `.output()` checks every result at run time.
 */
type CrudService = {
  list(ctx: TenantContext, query: never): Promise<unknown>;
  get(ctx: TenantContext, id: string): Promise<unknown>;
  create(ctx: TenantContext, raw: unknown): Promise<unknown>;
  update(ctx: TenantContext, id: string, raw: unknown): Promise<unknown>;
  delete(ctx: TenantContext, id: string): Promise<void>;
};
const crud = <
  L extends z.ZodType,
  C extends z.ZodType,
  U extends z.ZodType,
  R extends z.ZodType,
  D extends z.ZodType,
>(
  pick: (services: ApiServices) => CrudService,
  schemas: { list: L; listItem: R; create: C; update: U; item: D },
) => ({
  list: authed
    .input(schemas.list)
    .output(ZPage(schemas.listItem))
    .query(({ ctx, input }) => pick(ctx.services).list(ctx.caller, input as never) as never),
  get: authed
    .input(ZId)
    .output(schemas.item)
    .query(({ ctx, input }) => pick(ctx.services).get(ctx.caller, input.id) as never),
  create: authed
    .input(schemas.create)
    .output(schemas.item)
    .mutation(({ ctx, input }) => pick(ctx.services).create(ctx.caller, input) as never),
  update: authed
    .input(withId(schemas.update))
    .output(schemas.item)
    .mutation(({ ctx, input }) => {
      const { id, data } = input as { id: string; data: unknown };
      return pick(ctx.services).update(ctx.caller, id, data) as never;
    }),
  delete: authed
    .input(ZId)
    .output(z.null())
    .mutation(async ({ ctx, input }) => {
      await pick(ctx.services).delete(ctx.caller, input.id);
      return null;
    }),
});

const documents = { list: ZListDocumentsQuery, create: ZCreateDocumentInput, update: ZUpdateDocumentInput };
const categories = { list: ZListCategoriesQuery, create: ZCreateCategoryInput, update: ZUpdateCategoryInput };

/** Where the app downloads a spreadsheet: the REST route and query (fetched with the same credentials). */
const ZDownload = z.object({ url: z.string(), fileName: z.string(), contentType: z.string() });

/** The query string of a parsed input: undefined dropped, arrays repeated. */
const queryString = (input: Record<string, unknown>) => {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(input)) {
    for (const item of Array.isArray(value) ? value : [value]) {
      if (item !== undefined && item !== null) params.append(key, String(item));
    }
  }
  const text = params.toString();
  return text ? `?${text}` : "";
};

/**
 * A download link procedure: preparing the export checks permission, input and ids exactly as the
 * REST download will (so the app hears a 403/400/404 here, typed), then the link is returned.
 */
const download = <Q extends z.ZodType>(
  query: Q,
  path: (input: z.output<Q>) => string,
  prepare: (
    services: ApiServices,
    caller: TenantContext,
    input: z.output<Q>,
  ) => Promise<{ fileName: string }>,
  strip: (input: z.output<Q>) => Record<string, unknown> = (input) => input as Record<string, unknown>,
) =>
  authed
    .input(query)
    .output(ZDownload)
    .query(async ({ ctx, input }) => {
      const parsed = input as z.output<Q>;
      const prepared = await prepare(ctx.services, ctx.caller, parsed);
      return {
        url: `${path(parsed)}${queryString(strip(parsed))}`,
        fileName: prepared.fileName,
        contentType: XLSX_CONTENT_TYPE,
      };
    });

const withAccount = <S extends z.ZodType>(query: S) => z.object({ accountId: z.uuid(), query });

export const appRouter = router({
  session: router({
    /** The signed-in user: name, language, roles and effective permissions. */
    me: authed.output(ZAccountDto).query(({ ctx }) => ctx.services.account.get(ctx.caller)),
    /** One's own name, language (the app's language switch saves it here) or password: PUT /account's service. */
    update: authed
      .input(ZUpdateAccountInput)
      .output(ZAccountDto)
      .mutation(({ ctx, input }) => ctx.services.account.update(ctx.caller, input)),
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
    /** The account's opening balance (as GET /finance/accounts/:id/opening-balance). */
    openingBalance: authed
      .input(ZId)
      .output(ZOpeningBalanceDto)
      .query(({ ctx, input }) => ctx.services.finance.openingBalances.get(ctx.caller, input.id)),
    /** Set, change or (amount "0": null) remove it, while nothing else is posted to the account. */
    setOpeningBalance: authed
      .input(withId(ZSetOpeningBalanceInput))
      .output(ZOpeningBalanceDto.nullable())
      .mutation(({ ctx, input }) =>
        ctx.services.finance.openingBalances.set(ctx.caller, input.id, input.data),
      ),
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
  payments: crud((services) => services.finance.payments, {
    ...documents,
    listItem: ZPaymentDto,
    item: ZPaymentDto,
  }),
  expenses: crud((services) => services.finance.expenses, {
    ...documents,
    listItem: ZExpenseDto,
    item: ZExpenseDto,
  }),
  counterparties: crud((services) => services.finance.counterparties, {
    list: ZListCounterpartiesQuery,
    listItem: ZCounterpartyDto,
    create: ZCreateCounterpartyInput,
    update: ZUpdateCounterpartyInput,
    item: ZCounterpartyDto,
  }),
  paymentCategories: crud((services) => services.finance.paymentCategories, {
    ...categories,
    listItem: ZPaymentCategoryDto,
    item: ZPaymentCategoryDto,
  }),
  expenseCategories: crud((services) => services.finance.expenseCategories, {
    ...categories,
    listItem: ZExpenseCategoryDto,
    item: ZExpenseCategoryDto,
  }),
  debts: router({
    ...crud((services) => services.finance.debts, {
      list: ZListDebtsQuery,
      listItem: ZDebtDto,
      create: ZCreateDebtInput,
      update: ZUpdateDebtInput,
      item: ZDebtDetailDto,
    }),
    /** Pays (part of) the debt from or into an account: the debt and the payment or expense in one transaction. */
    settle: authed
      .input(withId(ZSettleDebtInput))
      .output(ZDebtSettlementResult)
      .mutation(({ ctx, input }) => ctx.services.finance.debts.settle(ctx.caller, input.id, input.data)),
    reverseSettlement: authed
      .input(z.object({ id: z.uuid(), settlementId: z.uuid() }))
      .output(ZDebtDetailDto)
      .mutation(({ ctx, input }) =>
        ctx.services.finance.debts.reverseSettlement(ctx.caller, input.id, input.settlementId),
      ),
    writeOff: authed
      .input(withId(ZWriteOffDebtInput))
      .output(ZDebtDetailDto)
      .mutation(({ ctx, input }) => ctx.services.finance.debts.writeOff(ctx.caller, input.id, input.data)),
  }),
  inventory: router({
    ...crud((services) => services.finance.inventory, {
      list: ZListInventoryQuery,
      listItem: ZInventoryItemDto,
      create: ZCreateInventoryItemInput,
      update: ZUpdateInventoryItemInput,
      item: ZInventoryItemDto,
    }),
    recordMovement: authed
      .input(withId(ZCreateInventoryMovementInput))
      .output(ZInventoryMovementResult)
      .mutation(({ ctx, input }) =>
        ctx.services.finance.inventory.recordMovement(ctx.caller, input.id, input.data),
      ),
    movements: authed
      .input(z.object({ id: z.uuid(), query: ZListInventoryMovementsQuery.optional() }))
      .output(ZPage(ZInventoryMovementDto))
      .query(({ ctx, input }) =>
        ctx.services.finance.inventory.movements(ctx.caller, input.id, input.query ?? {}),
      ),
  }),
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
  /** Spreadsheet downloads: each returns the link to its REST route after the same checks. */
  exports: router({
    payments: download(
      ZExportDocumentsQuery,
      () => "/finance/payments/export",
      (services, caller, input) => services.finance.exports.payments(caller, input),
    ),
    expenses: download(
      ZExportDocumentsQuery,
      () => "/finance/expenses/export",
      (services, caller, input) => services.finance.exports.expenses(caller, input),
    ),
    accounts: download(
      ZExportAccountsQuery,
      () => "/finance/accounts/export",
      (services, caller, input) => services.finance.exports.accounts(caller, input),
    ),
    transactions: download(
      withAccount(ZExportAccountTransactionsQuery),
      (input) => `/finance/accounts/${input.accountId}/transactions/export`,
      (services, caller, input) =>
        services.finance.exports.transactions(caller, input.accountId, input.query),
      (input) => input.query,
    ),
    debts: download(
      ZExportDebtsQuery,
      () => "/finance/debts/export",
      (services, caller, input) => services.finance.exports.debts(caller, input),
    ),
    counterparties: download(
      ZExportCounterpartiesQuery,
      () => "/finance/counterparties/export",
      (services, caller, input) => services.finance.exports.counterparties(caller, input),
    ),
    inventory: download(
      ZExportInventoryQuery,
      () => "/finance/inventory/export",
      (services, caller, input) => services.finance.exports.inventory(caller, input),
    ),
    incomeStatement: download(
      ZIncomeStatementQuery,
      () => "/finance/reports/income-statement/export",
      (services, caller, input) => services.finance.exports.incomeStatement(caller, input),
    ),
    cashflow: download(
      ZCashflowQuery,
      () => "/finance/reports/cashflow/export",
      (services, caller, input) => services.finance.exports.cashflow(caller, input),
    ),
    accountStatement: download(
      withAccount(ZAccountStatementExportQuery),
      (input) => `/finance/reports/account-statement/${input.accountId}/export`,
      (services, caller, input) =>
        services.finance.exports.accountStatement(caller, input.accountId, input.query),
      (input) => input.query,
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
