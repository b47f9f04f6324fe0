import { Prisma, type Tx } from "@hisob/db";
import { dateOf, toIsoDate } from "@hisob/kernel/schema";
import type { z } from "zod";
import type {
  TDocumentDto,
  TDocumentListItem,
  TDocumentTotals,
  ZDocumentFilters,
  ZListDocumentsQuery,
} from "./payments-expenses.schema";

/** Which table: payments (money in) or expenses (money out); the two have identical columns. */
export type PaymentsOrExpenses = "payments" | "expenses";

/** What every read of a payment or expense selects (the list, the detail and loaders). */
const documentSelect = {
  id: true,
  accountId: true,
  amount: true,
  date: true,
  counterpartyId: true,
  categoryId: true,
  comment: true,
  transactionId: true,
  createdBy: true,
  createdAt: true,
  updatedAt: true,
  account: { select: { currencyCode: true } },
} satisfies Prisma.PaymentSelect;

type DocumentRow = Prisma.PaymentGetPayload<{ select: typeof documentSelect }>;

/** The list's rows: the document and the names of its category and counterparty. */
const listSelect = {
  ...documentSelect,
  category: { select: { name: true } },
  counterparty: { select: { name: true } },
} satisfies Prisma.PaymentSelect;

/** What the download shows: names instead of ids. */
const exportSelect = {
  id: true,
  date: true,
  amount: true,
  comment: true,
  createdAt: true,
  account: { select: { name: true, currencyCode: true } },
  counterparty: { select: { name: true } },
  category: { select: { name: true } },
} satisfies Prisma.PaymentSelect;

export type DocumentExportRow = Prisma.PaymentGetPayload<{ select: typeof exportSelect }>;

const toDto = (row: DocumentRow): TDocumentDto => ({
  id: row.id,
  accountId: row.accountId,
  currency: row.account.currencyCode,
  amount: row.amount.toString(),
  date: toIsoDate(row.date),
  counterpartyId: row.counterpartyId,
  categoryId: row.categoryId,
  comment: row.comment,
  transactionId: row.transactionId,
  createdBy: row.createdBy,
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
});

type DocumentFilters = z.output<typeof ZDocumentFilters>;
type TotalsFilters = Omit<DocumentFilters, "sortBy" | "order">;
type ListQuery = z.output<typeof ZListDocumentsQuery>;

/**
 * The list's filter (its download uses it too); `ownerId` limits a `:own` reader. The scope narrows
 * the filter, never replaces it: an own reader asking for someone else's documents gets none.
 */
export const paymentsExpensesWhere = (
  tenantId: string,
  query: TotalsFilters,
  ownerId: string | null,
): Prisma.PaymentWhereInput => ({
  tenantId,
  ...(query.accountId ? { accountId: query.accountId } : {}),
  ...(query.counterpartyId ? { counterpartyId: query.counterpartyId } : {}),
  ...(query.categoryId ? { categoryId: query.categoryId } : {}),
  ...(query.from || query.to
    ? {
        date: {
          ...(query.from ? { gte: dateOf(query.from) } : {}),
          ...(query.to ? { lte: dateOf(query.to) } : {}),
        },
      }
    : {}),
  ...(ownerId || query.createdBy
    ? { AND: [ownerId ? { createdBy: ownerId } : {}, query.createdBy ? { createdBy: query.createdBy } : {}] }
    : {}),
});

/** paymentsExpensesWhere as SQL over the documents aliased `d`, for the one-statement totals. */
const totalsFilterSql = (tenantId: string, query: TotalsFilters, ownerId: string | null): Prisma.Sql => {
  const conditions = [Prisma.sql`d.tenant_id = ${tenantId}::uuid`];
  if (query.accountId) conditions.push(Prisma.sql`d.account_id = ${query.accountId}::uuid`);
  if (query.counterpartyId) conditions.push(Prisma.sql`d.counterparty_id = ${query.counterpartyId}::uuid`);
  if (query.categoryId) conditions.push(Prisma.sql`d.category_id = ${query.categoryId}::uuid`);
  if (query.from) conditions.push(Prisma.sql`d.date >= ${query.from}::date`);
  if (query.to) conditions.push(Prisma.sql`d.date <= ${query.to}::date`);
  if (ownerId) conditions.push(Prisma.sql`d.created_by = ${ownerId}::uuid`);
  if (query.createdBy) conditions.push(Prisma.sql`d.created_by = ${query.createdBy}::uuid`);
  return Prisma.join(conditions, " AND ");
};

/** The list's order; the id breaks ties so pages (and download batches) never repeat or skip rows. */
const orderOf = (query: {
  sortBy: DocumentFilters["sortBy"] | readonly DocumentFilters["sortBy"][];
  order: DocumentFilters["order"];
}) => [...[query.sortBy].flat().map((field) => ({ [field]: query.order })), { id: query.order }];

/** The document's posting facts as they stand under its row lock. */
export type LockedDocument = {
  accountId: string;
  amount: bigint;
  transactionId: string;
  counterpartyId: string | null;
  settlesDebt: boolean;
  /** `YYYY-MM-DD`: the closed-period rule reads it. */
  date: string;
};

/** Payments or expenses of one tenant; every query carries the tenant (wall 1; RLS is wall 2). */
export const paymentsExpensesRepository = (table: PaymentsOrExpenses) => {
  // One delegate type serves both tables.
  const delegate = (tx: Tx) => (table === "payments" ? tx.payment : tx.expense) as unknown as Tx["payment"];
  const settlementColumn = table === "payments" ? "payment_id" : "expense_id";

  return {
    /** With `ownerId`, only if that user created it. */
    findById: async (
      tx: Tx,
      tenantId: string,
      id: string,
      ownerId: string | null = null,
    ): Promise<TDocumentDto | null> => {
      const row = await delegate(tx).findFirst({
        where: { tenantId, id, ...(ownerId ? { createdBy: ownerId } : {}) },
        select: documentSelect,
      });
      return row ? toDto(row) : null;
    },

    /** The ones that exist in the tenant, in any order (per-request loaders batch through this). */
    findByIds: async (tx: Tx, tenantId: string, ids: readonly string[]): Promise<TDocumentDto[]> => {
      if (ids.length === 0) return [];
      const rows = await delegate(tx).findMany({
        where: { tenantId, id: { in: [...ids] } },
        select: documentSelect,
      });
      return rows.map(toDto);
    },

    list: async (
      tx: Tx,
      tenantId: string,
      query: ListQuery,
      ownerId: string | null,
    ): Promise<{ items: TDocumentListItem[]; total: number }> => {
      const where = paymentsExpensesWhere(tenantId, query, ownerId);
      const [rows, total] = await Promise.all([
        delegate(tx).findMany({
          where,
          select: listSelect,
          orderBy: orderOf(query),
          skip: query.offset,
          take: query.limit,
        }),
        delegate(tx).count({ where }),
      ]);
      return {
        items: rows.map((row) => ({
          ...toDto(row),
          categoryName: row.category?.name ?? null,
          counterpartyName: row.counterparty?.name ?? null,
        })),
        total,
      };
    },

    /**
     * Every document the filter matches (not a page of them): how many, and their sum per currency,
     * in one statement (one snapshot: the count and the sums are of the same documents), with the
     * list's own filter (totalsFilterSql mirrors paymentsExpensesWhere).
     */
    totals: async (
      tx: Tx,
      tenantId: string,
      query: TotalsFilters,
      ownerId: string | null,
    ): Promise<TDocumentTotals> => {
      const rows = await tx.$queryRaw<{ currency: string; count: number; amount: string }[]>`
        SELECT a.currency_code::text AS currency, count(*)::int AS count, sum(d.amount)::text AS amount
          FROM ${Prisma.raw(table)} d
          JOIN money_accounts a ON a.tenant_id = d.tenant_id AND a.id = d.account_id
         WHERE ${totalsFilterSql(tenantId, query, ownerId)}
         GROUP BY a.currency_code
         ORDER BY a.currency_code`;
      const currencies = rows.map((row) => ({
        currency: row.currency,
        count: row.count,
        amount: row.amount,
      }));
      return { count: currencies.reduce((sum, row) => sum + row.count, 0), currencies };
    },

    /** One batch of the download: the list's filter and order, names instead of ids. */
    exportBatch: (
      tx: Tx,
      args: { where: Prisma.PaymentWhereInput; take: number; skip?: number },
      query: Pick<DocumentFilters, "sortBy" | "order">,
    ): Promise<DocumentExportRow[]> =>
      delegate(tx).findMany({ ...args, select: exportSelect, orderBy: orderOf(query) }),

    /** The document's posting facts, row-locked so concurrent edits of one document queue. */
    lock: async (tx: Tx, tenantId: string, id: string): Promise<LockedDocument | null> => {
      const rows = await tx.$queryRaw<
        {
          account_id: string;
          amount: string;
          transaction_id: string;
          counterparty_id: string | null;
          settles_debt: boolean;
          date: string;
        }[]
      >`
      SELECT d.account_id::text, d.amount::text, d.transaction_id::text, d.counterparty_id::text, d.date::text,
             EXISTS (SELECT 1 FROM debt_settlements s
                      WHERE s.tenant_id = d.tenant_id AND s.${Prisma.raw(settlementColumn)} = d.id) AS settles_debt
        FROM ${Prisma.raw(table)} d
       WHERE d.tenant_id = ${tenantId}::uuid AND d.id = ${id}::uuid FOR UPDATE OF d`;
      const row = rows[0];
      return row
        ? {
            accountId: row.account_id,
            amount: BigInt(row.amount),
            transactionId: row.transaction_id,
            counterpartyId: row.counterparty_id,
            settlesDebt: row.settles_debt,
            date: row.date,
          }
        : null;
    },

    /** Undefined fields stay as they are. */
    update: async (
      tx: Tx,
      tenantId: string,
      id: string,
      data: {
        accountId: string;
        amount: bigint;
        date?: string;
        comment?: string;
        counterpartyId?: string | null;
        categoryId?: string | null;
        updatedAt: Date;
      },
    ): Promise<void> => {
      await delegate(tx).updateMany({
        where: { tenantId, id },
        data: {
          accountId: data.accountId,
          amount: data.amount,
          ...(data.date === undefined ? {} : { date: dateOf(data.date) }),
          ...(data.comment === undefined ? {} : { comment: data.comment }),
          ...(data.counterpartyId === undefined ? {} : { counterpartyId: data.counterpartyId }),
          ...(data.categoryId === undefined ? {} : { categoryId: data.categoryId }),
          updatedAt: data.updatedAt,
        },
      });
    },

    delete: async (tx: Tx, tenantId: string, id: string): Promise<void> => {
      await delegate(tx).deleteMany({ where: { tenantId, id } });
    },
  };
};

export type PaymentsExpensesRepository = ReturnType<typeof paymentsExpensesRepository>;
