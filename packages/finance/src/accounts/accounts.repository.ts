import type { Prisma, RawTenantTx, Tx } from "@hisob/db";
import { likeLiteral, searchIn } from "@hisob/kernel";
import type { z } from "zod";
import type { TMoneyAccountDto, ZListMoneyAccountsQuery } from "./accounts.schema";

/** What every read of a money account selects (the list, the detail, loaders and the download). */
export const accountSelect = {
  id: true,
  name: true,
  number: true,
  currencyCode: true,
  balance: true,
  allowOverdraft: true,
  description: true,
  createdAt: true,
  updatedAt: true,
} satisfies Prisma.MoneyAccountSelect;

export type AccountRow = Prisma.MoneyAccountGetPayload<{ select: typeof accountSelect }>;

export const toAccountDto = (row: AccountRow): TMoneyAccountDto => ({
  id: row.id,
  name: row.name,
  number: row.number,
  currency: row.currencyCode,
  balance: row.balance.toString(),
  allowOverdraft: row.allowOverdraft,
  description: row.description,
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
});

type ListQuery = z.output<typeof ZListMoneyAccountsQuery>;

/** The list's filters (its download uses them too). */
export const accountsWhere = (
  tenantId: string,
  query: Pick<ListQuery, "currency" | "search">,
): Prisma.MoneyAccountWhereInput => ({
  tenantId,
  ...(query.currency ? { currencyCode: query.currency } : {}),
  ...(query.search
    ? {
        OR: searchIn(["name", "number"], query.search),
      }
    : {}),
});

/** The list's order; the id breaks ties so pages (and download batches) never repeat or skip rows. */
const orderOf = (query: Pick<ListQuery, "sortBy" | "order">) => [
  { [query.sortBy]: query.order },
  { id: query.order },
];

/** The list's order in SQL: the columns come from this map only (sortBy is an enum besides). */
const SORT_COLUMN: Record<ListQuery["sortBy"], string> = {
  name: `"name"`,
  createdAt: `"created_at"`,
  balance: `"balance"`,
};

/** A timestamptz(3) as `Date#toISOString` writes it (what the Prisma path returns). */
const isoText = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** `accountSelect` in SQL, as the DTO's fields and types (bigint and times as text). */
const ACCOUNT_COLUMNS = `"id"::text AS "id", "name", "number", "currency_code"::text AS "currency",
  "balance"::text AS "balance", "allow_overdraft" AS "allowOverdraft", "description",
  ${isoText(`"created_at"`)} AS "createdAt", ${isoText(`"updated_at"`)} AS "updatedAt"`;

/** `accountsWhere` in SQL with its parameters: the search is ILIKE '%…%' on the text escaped as `searchIn` does. */
const accountsWhereSql = (tenantId: string, query: Pick<ListQuery, "currency" | "search">) => {
  const params: unknown[] = [tenantId];
  let where = `"tenant_id" = $1::uuid`;
  if (query.currency) {
    params.push(query.currency);
    where += ` AND "currency_code" = $${params.length}`;
  }
  if (query.search) {
    params.push(`%${likeLiteral(query.search)}%`);
    where += ` AND ("name" ILIKE $${params.length} OR "number" ILIKE $${params.length})`;
  }
  return { where, params };
};

/** Money accounts of one tenant; every query carries the tenant (wall 1; RLS is wall 2). */
export const accountsRepository = {
  findById: async (tx: Tx, tenantId: string, id: string): Promise<TMoneyAccountDto | null> => {
    const row = await tx.moneyAccount.findFirst({ where: { tenantId, id }, select: accountSelect });
    return row ? toAccountDto(row) : null;
  },

  /** The ones that exist in the tenant, in any order (per-request loaders batch through this). */
  findByIds: async (tx: Tx, tenantId: string, ids: readonly string[]): Promise<TMoneyAccountDto[]> => {
    if (ids.length === 0) return [];
    const rows = await tx.moneyAccount.findMany({
      where: { tenantId, id: { in: [...ids] } },
      select: accountSelect,
    });
    return rows.map(toAccountDto);
  },

  /** Every account's name and currency by id (report workbooks name the accounts their rows mention). */
  namesById: async (tx: Tx, tenantId: string): Promise<Map<string, { name: string; currency: string }>> => {
    const rows = await tx.moneyAccount.findMany({
      where: { tenantId },
      select: { id: true, name: true, currencyCode: true },
    });
    return new Map(rows.map((row) => [row.id, { name: row.name, currency: row.currencyCode }]));
  },

  exists: async (tx: Tx, tenantId: string, id: string): Promise<boolean> =>
    (await tx.moneyAccount.count({ where: { tenantId, id } })) > 0,

  list: async (tx: Tx, tenantId: string, query: ListQuery) => {
    const where = accountsWhere(tenantId, query);
    const [rows, total] = await Promise.all([
      tx.moneyAccount.findMany({
        where,
        select: accountSelect,
        orderBy: orderOf(query),
        skip: query.offset,
        take: query.limit,
      }),
      tx.moneyAccount.count({ where }),
    ]);
    return { items: rows.map(toAccountDto), total };
  },

  /**
   * The list page without the ORM (`db.rawTx.withTenant`, read only): the page and the total in one
   * statement (`count(*) OVER ()`), which commits as it returns — the scope and the page are one
   * round trip on PostgreSQL, one transaction; only a page past the end, which has no row to carry the
   * total, counts again. Same filter, order and DTO as `list` (accounts.repository.int.test.ts
   * compares them).
   */
  listPage: async (tx: RawTenantTx, tenantId: string, query: ListQuery) => {
    const { where, params } = accountsWhereSql(tenantId, query);
    const direction = query.order === "desc" ? "DESC" : "ASC";
    const rows = await tx.query<TMoneyAccountDto & { total: number }>(
      `SELECT ${ACCOUNT_COLUMNS}, count(*) OVER ()::int AS "total" FROM "money_accounts"
        WHERE ${where} ORDER BY ${SORT_COLUMN[query.sortBy]} ${direction}, "id" ${direction}
        LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
      [...params, query.limit, query.offset],
      { prepared: true, commit: true },
    );
    let total = rows[0]?.total ?? 0;
    if (rows.length === 0 && query.offset > 0) {
      const [row] = await tx.query<{ total: number }>(
        `SELECT count(*)::int AS "total" FROM "money_accounts" WHERE ${where}`,
        params,
      );
      total = row?.total ?? 0;
    }
    return { items: rows.map(({ total: _total, ...item }) => item), total };
  },

  /** One batch of the download: the list's filter and order, the rows as stored. */
  exportBatch: (
    tx: Tx,
    args: { where: Prisma.MoneyAccountWhereInput; take: number; skip?: number },
    query: Pick<ListQuery, "sortBy" | "order">,
  ): Promise<AccountRow[]> =>
    tx.moneyAccount.findMany({ ...args, select: accountSelect, orderBy: orderOf(query) }),

  /** The account's balance, row-locked: a posting cannot slip past a check made under the lock. */
  lockBalance: async (tx: Tx, tenantId: string, id: string): Promise<bigint | null> => {
    const [row] = await tx.$queryRaw<{ balance: string }[]>`
      SELECT balance::text FROM money_accounts
       WHERE tenant_id = ${tenantId}::uuid AND id = ${id}::uuid FOR UPDATE`;
    return row ? BigInt(row.balance) : null;
  },

  insert: async (tx: Tx, data: Prisma.MoneyAccountUncheckedCreateInput): Promise<TMoneyAccountDto> =>
    toAccountDto(await tx.moneyAccount.create({ data, select: accountSelect })),

  /** Undefined fields stay as they are. */
  update: async (
    tx: Tx,
    tenantId: string,
    id: string,
    data: Prisma.MoneyAccountUpdateManyMutationInput,
  ): Promise<void> => {
    await tx.moneyAccount.updateMany({ where: { tenantId, id }, data });
  },

  /** False when there is no such account; a foreign-key error when the ledger refers to it. */
  delete: async (tx: Tx, tenantId: string, id: string): Promise<boolean> =>
    (await tx.moneyAccount.deleteMany({ where: { tenantId, id } })).count > 0,
};
