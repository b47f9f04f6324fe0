import { afterInOrder, type ExportColumn, type StreamedStatement, streamedRows } from "@hisob/core";
import { type Db, sqlParams } from "@hisob/db";
import { type Clock, parseInput, requirePermission, requireScope, type TenantContext } from "@hisob/kernel";
import { dateOf, toIsoDate } from "@hisob/kernel/schema";
import type { z } from "zod";
import { type AccountRow, accountsRepository, accountsWhere } from "../accounts/accounts.repository";
import { accountNotFound } from "../accounts/accounts.service";
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
 * (up to EXPORT_MAX_ROWS) unless `limit` is given. An account's transactions and the payments and
 * expenses stream from one statement on the driver (streamedRows: a cursor on PostgreSQL); the
 * accounts list, in keyset batches on (sort field, id).
 */

export { ZExportAccountsQuery, ZExportAccountTransactionsQuery, ZExportDocumentsQuery };

/** One exported ledger entry of an account: what the sheet shows, and its key (date, id). */
type EntryRow = {
  id: string;
  /** The day as the database writes it (the keyset's), and as a date at UTC midnight (the cell's). */
  day: string;
  date: Date;
  type: "income" | "expense" | "transfer" | "exchange" | "opening_balance";
  /** What the entry did to the account's balance, in minor units (negative: out). */
  change: string;
  counterAccountName: string | null;
  exchangeRate: string | null;
  comment: string;
  createdAt: Date;
};
type EntryTuple = [string, string, EntryRow["type"], string, string | null, string | null, string, Date];
const toEntryRow = (r: EntryTuple): EntryRow => ({
  id: r[0],
  day: r[1],
  date: dateOf(r[1]),
  type: r[2],
  change: r[3],
  counterAccountName: r[4],
  exchangeRate: r[5],
  comment: r[6],
  createdAt: r[7],
});

/**
 * An account's entries for its download, in (date, id) order: money out and money in as two index
 * range scans merged in order (an OR across the two account columns reads the account's whole history
 * and sorts it), each carrying the columns the sheet shows, the counter account's name looked up per
 * entry. The list's filters (type, dates); `after` continues a keyset walk (the embedded database's
 * batches, see streamedRows).
 */
const entriesStatement =
  (
    tenantId: string,
    accountId: string,
    query: z.output<typeof ZExportAccountTransactionsQuery>,
  ): StreamedStatement<EntryRow> =>
  ({ after, take, skip }) => {
    const params = sqlParams();
    const tenant = params.add(tenantId);
    const account = params.add(accountId);
    const direction = query.order === "asc" ? "ASC" : "DESC";
    const filters: string[] = [];
    if (query.type) filters.push(`AND t.type = ${params.add(query.type)}::transaction_type`);
    if (query.from) filters.push(`AND t.date >= ${params.add(query.from)}::date`);
    if (query.to) filters.push(`AND t.date <= ${params.add(query.to)}::date`);
    if (after)
      filters.push(
        `AND (t.date, t.id) ${query.order === "asc" ? ">" : "<"} (${params.add(after.day)}::date, ${params.add(after.id)}::uuid)`,
      );
    const reach = params.add(take + skip);
    const side = (own: string, change: string, counter: string) => `
      (SELECT t.id, t.date, t.type, ${change} AS change, t.${counter} AS counter_id, t.exchange_rate,
              t.comment, t.created_at
         FROM transactions t
        WHERE t.tenant_id = ${tenant}::uuid AND t.${own} = ${account}::uuid ${filters.join(" ")}
        ORDER BY t.date ${direction}, t.id ${direction} LIMIT ${reach})`;
    const text = `
      SELECT e.id::text, e.date::text, e.type::text, e.change::text, a.name, e.exchange_rate::text, e.comment, e.created_at
        FROM (${side("origin_account_id", "-t.amount", "destination_account_id")}
              UNION ALL
              ${side("destination_account_id", "COALESCE(t.destination_amount, t.amount)", "origin_account_id")}
              ORDER BY date ${direction}, id ${direction}
              LIMIT ${params.add(take)} OFFSET ${params.add(skip)}) e
        LEFT JOIN money_accounts a ON a.tenant_id = ${tenant}::uuid AND a.id = e.counter_id
       ORDER BY e.date ${direction}, e.id ${direction}`;
    return { text, values: params.values };
  };

/** One exported payment or expense, and its key: the sort column as the database writes it, and the id. */
type DocumentRow = {
  id: string;
  key: string;
  date: Date;
  accountName: string;
  amount: string;
  currency: string;
  counterpartyName: string | null;
  categoryName: string | null;
  comment: string;
  createdAt: Date;
};
type DocumentTuple = [
  string,
  string,
  string,
  string,
  string,
  string,
  string | null,
  string | null,
  string,
  Date,
];
const toDocumentRow = (r: DocumentTuple): DocumentRow => ({
  id: r[0],
  key: r[1],
  date: dateOf(r[2]),
  accountName: r[3],
  amount: r[4],
  currency: r[5],
  counterpartyName: r[6],
  categoryName: r[7],
  comment: r[8],
  createdAt: r[9],
});

/** The documents' sort columns, and the type their key is read back as (the keyset's). */
const DOCUMENT_SORT: Record<
  z.output<typeof ZExportDocumentsQuery>["sortBy"],
  { column: string; type: string }
> = {
  date: { column: "d.date", type: "date" },
  amount: { column: "d.amount", type: "bigint" },
  createdAt: { column: "d.created_at", type: "timestamptz" },
};

/**
 * Payments or expenses for their download: the list's filters (as its totals write them in SQL), its
 * one sort field and the id, the account, counterparty and category names joined. The key is the
 * sort column as text (a timestamp keeps its microseconds, which a JavaScript date would lose).
 */
const documentsStatement =
  (
    table: "payments" | "expenses",
    tenantId: string,
    query: z.output<typeof ZExportDocumentsQuery>,
    ownerId: string | null,
  ): StreamedStatement<DocumentRow> =>
  ({ after, take, skip }) => {
    const params = sqlParams();
    const tenant = params.add(tenantId);
    const where = [`d.tenant_id = ${tenant}::uuid`];
    if (query.accountId) where.push(`d.account_id = ${params.add(query.accountId)}::uuid`);
    if (query.counterpartyId) where.push(`d.counterparty_id = ${params.add(query.counterpartyId)}::uuid`);
    if (query.categoryId) where.push(`d.category_id = ${params.add(query.categoryId)}::uuid`);
    if (query.from) where.push(`d.date >= ${params.add(query.from)}::date`);
    if (query.to) where.push(`d.date <= ${params.add(query.to)}::date`);
    if (ownerId) where.push(`d.created_by = ${params.add(ownerId)}::uuid`);
    if (query.createdBy) where.push(`d.created_by = ${params.add(query.createdBy)}::uuid`);
    const sort = DOCUMENT_SORT[query.sortBy];
    const direction = query.order === "asc" ? "ASC" : "DESC";
    if (after)
      where.push(
        `(${sort.column}, d.id) ${query.order === "asc" ? ">" : "<"} (${params.add(after.key)}::${sort.type}, ${params.add(after.id)}::uuid)`,
      );
    const categories = table === "payments" ? "payment_categories" : "expense_categories";
    const text = `
      SELECT d.id::text, ${sort.column}::text, d.date::text, a.name, d.amount::text, a.currency_code,
             cp.name, c.name, d.comment, d.created_at
        FROM ${table} d
        JOIN money_accounts a ON a.tenant_id = d.tenant_id AND a.id = d.account_id
        LEFT JOIN counterparties cp ON cp.tenant_id = d.tenant_id AND cp.id = d.counterparty_id
        LEFT JOIN ${categories} c ON c.tenant_id = d.tenant_id AND c.id = d.category_id
       WHERE ${where.join(" AND ")}
       ORDER BY ${sort.column} ${direction}, d.id ${direction}
       LIMIT ${params.add(take)} OFFSET ${params.add(skip)}`;
    return { text, values: params.values };
  };

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
    const formats = await loadCurrencyFormats(db);
    const columns: ExportColumn<DocumentRow>[] = [
      { header: header(ctx.locale, "date"), kind: "date", value: (row) => row.date },
      { header: header(ctx.locale, "account"), kind: "text", value: (row) => row.accountName },
      {
        header: header(ctx.locale, "amount"),
        kind: "money",
        value: (row) => moneyCell(formats, row.amount, row.currency),
      },
      { header: header(ctx.locale, "currency"), kind: "text", width: 10, value: (row) => row.currency },
      { header: header(ctx.locale, "counterparty"), kind: "text", value: (row) => row.counterpartyName },
      { header: header(ctx.locale, "category"), kind: "text", value: (row) => row.categoryName },
      { header: header(ctx.locale, "comment"), kind: "text", width: 40, value: (row) => row.comment },
      createdAtColumn(ctx.locale),
    ];
    return prepared({
      fileName: exportFileName(kind.resource, today()),
      locale: ctx.locale,
      sheet: sheetName(ctx.locale, kind.resource),
      columns,
      rows: () =>
        streamedRows<DocumentTuple, DocumentRow>(db, ctx.tenantId, {
          statement: documentsStatement(
            kind.resource,
            ctx.tenantId,
            query,
            scope === "own" ? ctx.actor.userId : null,
          ),
          toRow: toDocumentRow,
          limit: query.limit,
          skip: query.offset,
          signal: ctx.signal,
        }),
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
      const columns: ExportColumn<EntryRow>[] = [
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
          value: (row) => row.counterAccountName,
        },
        {
          header: header(ctx.locale, "exchangeRate"),
          kind: "text",
          width: 14,
          value: (row) => row.exchangeRate?.replace(/\.?0+$/, "") ?? null,
        },
        { header: header(ctx.locale, "comment"), kind: "text", width: 40, value: (row) => row.comment },
        { header: header(ctx.locale, "createdAt"), kind: "datetime", value: (row) => row.createdAt },
      ];
      return prepared({
        fileName: exportFileName("transactions", today()),
        locale: ctx.locale,
        sheet: sheetName(ctx.locale, "transactions"),
        columns,
        rows: () =>
          streamedRows<EntryTuple, EntryRow>(db, ctx.tenantId, {
            statement: entriesStatement(ctx.tenantId, accountId, query),
            toRow: toEntryRow,
            limit: query.limit,
            skip: query.offset,
            signal: ctx.signal,
          }),
      });
    },
  };
};
