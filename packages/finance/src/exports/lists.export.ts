import { afterInOrder, EXPORT_MAX_ROWS, type ExportColumn, keysetBatches } from "@hisob/core";
import type { Db } from "@hisob/db";
import { type Clock, parseInput, requirePermission, requireScope, type TenantContext } from "@hisob/kernel";
import { dateOf, toIsoDate } from "@hisob/kernel/schema";
import type { z } from "zod";
import { type AccountRow, accountsRepository, accountsWhere } from "../accounts/accounts.repository";
import { accountNotFound } from "../accounts/accounts.service";
import { type AccountEntryRow, accountEntries } from "../ledger/ledger";
import {
  type DocumentExportRow,
  paymentsExpensesRepository,
  paymentsExpensesWhere,
} from "../payments-expenses/payments-expenses.repository";
import type { PaymentOrExpenseKind } from "../payments-expenses/payments-expenses.service";
import {
  ZExportAccountsQuery,
  ZExportAccountTransactionsQuery,
  ZExportDocumentsQuery,
} from "./export-queries.schema";
import {
  createdAtColumn,
  currencyColumn,
  descriptionColumn,
  exportFileName,
  header,
  listSheet,
  loadCurrencyFormats,
  moneyCell,
  type PreparedExport,
  prepared,
  sheetName,
  typeLabel,
} from "./sheet-helpers";

/*
 * Finance lists as spreadsheets: the same filters and order as the JSON list; every matching row
 * (up to EXPORT_MAX_ROWS) unless `limit` is given. Rows come in keyset batches on (sort field, id).
 */

export { ZExportAccountsQuery, ZExportAccountTransactionsQuery, ZExportDocumentsQuery };

export const createListExports = (deps: { db: Db; clock: Clock }) => {
  const { db, clock } = deps;
  const today = () => toIsoDate(clock.now());

  const documents = async (
    kind: PaymentOrExpenseKind,
    ctx: TenantContext,
    raw: z.input<typeof ZExportDocumentsQuery>,
  ): Promise<PreparedExport> => {
    const scope = requireScope(ctx, kind.resource, "read");
    const query = parseInput(ZExportDocumentsQuery, raw);
    const where = paymentsExpensesWhere(ctx.tenantId, query, scope === "own" ? ctx.actor.userId : null);
    const repository = paymentsExpensesRepository(kind.resource);
    const formats = await loadCurrencyFormats(db);
    const columns: ExportColumn<DocumentExportRow>[] = [
      { header: header(ctx.locale, "date"), kind: "date", value: (row) => row.date },
      { header: header(ctx.locale, "account"), kind: "text", value: (row) => row.account.name },
      {
        header: header(ctx.locale, "amount"),
        kind: "money",
        value: (row) => moneyCell(formats, row.amount, row.account.currencyCode),
      },
      {
        header: header(ctx.locale, "currency"),
        kind: "text",
        width: 10,
        value: (row) => row.account.currencyCode,
      },
      {
        header: header(ctx.locale, "counterparty"),
        kind: "text",
        value: (row) => row.counterparty?.name ?? null,
      },
      { header: header(ctx.locale, "category"), kind: "text", value: (row) => row.category?.name ?? null },
      { header: header(ctx.locale, "comment"), kind: "text", width: 40, value: (row) => row.comment },
      createdAtColumn(ctx.locale),
    ];
    return listSheet(db, ctx, today(), {
      list: kind.resource,
      columns,
      where,
      after: (last) => afterInOrder(query.sortBy, last, query.order),
      find: (tx, args) => repository.exportBatch(tx, args, query),
      query,
    });
  };

  return {
    documents: (ctx: TenantContext, raw: z.input<typeof ZExportDocumentsQuery>, kind: PaymentOrExpenseKind) =>
      documents(kind, ctx, raw),

    accounts: async (
      ctx: TenantContext,
      raw: z.input<typeof ZExportAccountsQuery>,
    ): Promise<PreparedExport> => {
      requirePermission(ctx, "accounts:read:all");
      const query = parseInput(ZExportAccountsQuery, raw);
      const formats = await loadCurrencyFormats(db);
      const where = accountsWhere(ctx.tenantId, query);
      const columns: ExportColumn<AccountRow>[] = [
        { header: header(ctx.locale, "name"), kind: "text", value: (row) => row.name },
        { header: header(ctx.locale, "number"), kind: "text", value: (row) => row.number },
        currencyColumn(ctx.locale),
        {
          header: header(ctx.locale, "balance"),
          kind: "money",
          value: (row) => moneyCell(formats, row.balance, row.currencyCode),
        },
        { header: header(ctx.locale, "allowOverdraft"), kind: "boolean", value: (row) => row.allowOverdraft },
        descriptionColumn(ctx.locale),
        createdAtColumn(ctx.locale),
      ];
      return listSheet(db, ctx, today(), {
        list: "accounts",
        columns,
        where,
        after: (last) => afterInOrder(query.sortBy, last, query.order),
        find: (tx, args) => accountsRepository.exportBatch(tx, args, query),
        query,
      });
    },

    /** One account's ledger entries, with what each did to its balance. */
    transactions: async (
      ctx: TenantContext,
      accountId: string,
      raw: z.input<typeof ZExportAccountTransactionsQuery>,
    ): Promise<PreparedExport> => {
      requirePermission(ctx, "accounts:read:all");
      const query = parseInput(ZExportAccountTransactionsQuery, raw);
      const account = await db.withTenant(ctx.tenantId, (tx) =>
        accountsRepository.findById(tx, ctx.tenantId, accountId),
      );
      if (!account) throw accountNotFound();
      const formats = await loadCurrencyFormats(db);
      const columns: ExportColumn<AccountEntryRow>[] = [
        { header: header(ctx.locale, "date"), kind: "date", value: (row) => row.date },
        {
          header: header(ctx.locale, "type"),
          kind: "text",
          width: 14,
          value: (row) => typeLabel(ctx.locale, row.type),
        },
        {
          header: header(ctx.locale, "change"),
          kind: "money",
          value: (row) => moneyCell(formats, row.change, account.currency),
        },
        {
          header: header(ctx.locale, "counterAccount"),
          kind: "text",
          value: (row) => row.counter_account_name,
        },
        {
          header: header(ctx.locale, "exchangeRate"),
          kind: "text",
          width: 14,
          value: (row) => row.exchange_rate?.replace(/\.?0+$/, "") ?? null,
        },
        { header: header(ctx.locale, "comment"), kind: "text", width: 40, value: (row) => row.comment },
        { header: header(ctx.locale, "createdAt"), kind: "datetime", value: (row) => row.created_at },
      ];
      return prepared({
        fileName: exportFileName("transactions", today()),
        locale: ctx.locale,
        sheet: sheetName(ctx.locale, "transactions"),
        columns,
        rows: () =>
          keysetBatches<AccountEntryRow>(
            (last, take) =>
              db.withTenant(ctx.tenantId, (tx) =>
                accountEntries(tx, {
                  tenantId: ctx.tenantId,
                  accountId,
                  type: query.type,
                  from: query.from ? dateOf(query.from) : null,
                  to: query.to ? dateOf(query.to) : null,
                  order: query.order,
                  after: last,
                  take,
                  skip: last ? 0 : query.offset,
                }),
              ),
            query.limit ?? EXPORT_MAX_ROWS,
          ),
      });
    },
  };
};
