import {
  audit,
  type Db,
  diffFields,
  isUniqueViolation,
  type Prisma,
  type Tx,
  violatedForeignKey,
} from "@hisob/db";
import {
  AppError,
  type Clock,
  type Page,
  parseInput,
  requirePermission,
  systemClock,
  type TenantContext,
} from "@hisob/kernel";
import { fieldError, notFound } from "../finance-errors";
import { ledgerRepository } from "../ledger/ledger";
import {
  type TAccountTransactionDto,
  type TListAccountTransactionsQuery,
  ZListAccountTransactionsQuery,
} from "../ledger/ledger.schema";
import {
  type TListMoneyAccountsQuery,
  type TMoneyAccountDto,
  ZCreateMoneyAccountInput,
  ZListMoneyAccountsQuery,
  ZUpdateMoneyAccountInput,
} from "./accounts.schema";

const accountSelect = {
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

type AccountRow = Prisma.MoneyAccountGetPayload<{ select: typeof accountSelect }>;

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

export const accountNotFound = () => notFound("finance.account_not_found", "Account not found");

const rethrowNameTaken = (error: unknown): never => {
  if (isUniqueViolation(error)) {
    throw new AppError("CONFLICT", {
      reason: "finance.account_name_taken",
      message: "An account with this name already exists",
    });
  }
  throw error;
};

const findAccount = async (tx: Tx, tenantId: string, id: string): Promise<TMoneyAccountDto | null> => {
  const row = await tx.moneyAccount.findFirst({ where: { tenantId, id }, select: accountSelect });
  return row ? toAccountDto(row) : null;
};

/** Money accounts: each has one currency of the tenant's selection and a balance only postings move. */
export const createAccountsService = (deps: { db: Db; clock?: Clock }) => {
  const { db } = deps;
  const clock = deps.clock ?? systemClock;

  return {
    list: async (ctx: TenantContext, rawQuery: TListMoneyAccountsQuery): Promise<Page<TMoneyAccountDto>> => {
      requirePermission(ctx, "accounts:read:all");
      const query = parseInput(ZListMoneyAccountsQuery, rawQuery);
      const where: Prisma.MoneyAccountWhereInput = {
        tenantId: ctx.tenantId,
        ...(query.currency ? { currencyCode: query.currency } : {}),
        ...(query.search
          ? {
              OR: [
                { name: { contains: query.search, mode: "insensitive" } },
                { number: { contains: query.search, mode: "insensitive" } },
              ],
            }
          : {}),
      };
      const [rows, total] = await db.withTenant(ctx.tenantId, (tx) =>
        Promise.all([
          tx.moneyAccount.findMany({
            where,
            select: accountSelect,
            orderBy: [{ [query.sortBy]: query.order }, { id: query.order }],
            skip: query.offset,
            take: query.limit,
          }),
          tx.moneyAccount.count({ where }),
        ]),
      );
      return { items: rows.map(toAccountDto), total, limit: query.limit, offset: query.offset };
    },

    /** Batch read for per-request loaders (GraphQL): the ones that exist in the caller's tenant, any order. */
    findByIds: async (ctx: TenantContext, ids: readonly string[]): Promise<TMoneyAccountDto[]> => {
      requirePermission(ctx, "accounts:read:all");
      if (ids.length === 0) return [];
      const rows = await db.withTenant(ctx.tenantId, (tx) =>
        tx.moneyAccount.findMany({
          where: { tenantId: ctx.tenantId, id: { in: [...ids] } },
          select: accountSelect,
        }),
      );
      return rows.map(toAccountDto);
    },

    get: async (ctx: TenantContext, id: string): Promise<TMoneyAccountDto> => {
      requirePermission(ctx, "accounts:read:all");
      const account = await db.withTenant(ctx.tenantId, (tx) => findAccount(tx, ctx.tenantId, id));
      if (!account) throw accountNotFound();
      return account;
    },

    create: async (ctx: TenantContext, raw: unknown): Promise<TMoneyAccountDto> => {
      requirePermission(ctx, "accounts:create:all");
      const input = parseInput(ZCreateMoneyAccountInput, raw);
      return db
        .withTenant(ctx.tenantId, async (tx) => {
          const selected = await tx.tenantCurrency.count({
            where: { tenantId: ctx.tenantId, currencyCode: input.currency },
          });
          if (selected === 0) {
            throw fieldError(
              "currency",
              "finance.currency_not_selected",
              "is not one of the organization's currencies",
            );
          }
          const row = await tx.moneyAccount.create({
            data: {
              tenantId: ctx.tenantId,
              name: input.name,
              number: input.number,
              currencyCode: input.currency,
              allowOverdraft: input.allowOverdraft,
              description: input.description,
            },
            select: accountSelect,
          });
          await audit(tx, ctx, "money_account", row.id, "create", { after: toAccountDto(row) });
          return toAccountDto(row);
        })
        .catch(rethrowNameTaken);
    },

    update: async (ctx: TenantContext, id: string, raw: unknown): Promise<TMoneyAccountDto> => {
      requirePermission(ctx, "accounts:update:all");
      const input = parseInput(ZUpdateMoneyAccountInput, raw);
      return db
        .withTenant(ctx.tenantId, async (tx) => {
          // Locks the row: a posting cannot slip a negative balance past the overdraft check below.
          const [current] = await tx.$queryRaw<{ balance: string }[]>`
            SELECT balance::text FROM money_accounts
             WHERE tenant_id = ${ctx.tenantId}::uuid AND id = ${id}::uuid FOR UPDATE`;
          if (!current) throw accountNotFound();
          if (input.allowOverdraft === false && BigInt(current.balance) < 0n) {
            throw new AppError("BUSINESS_RULE", {
              reason: "finance.account_negative",
              message: "Overdraft cannot be turned off while the balance is below zero",
              params: { balance: current.balance },
            });
          }
          const before = await findAccount(tx, ctx.tenantId, id);
          await tx.moneyAccount.updateMany({
            where: { tenantId: ctx.tenantId, id },
            data: {
              ...(input.name === undefined ? {} : { name: input.name }),
              ...(input.number === undefined ? {} : { number: input.number }),
              ...(input.allowOverdraft === undefined ? {} : { allowOverdraft: input.allowOverdraft }),
              ...(input.description === undefined ? {} : { description: input.description }),
              updatedAt: clock.now(),
            },
          });
          const account = await findAccount(tx, ctx.tenantId, id);
          if (!account) throw accountNotFound();
          await audit(tx, ctx, "money_account", id, "update", diffFields(before, account));
          return account;
        })
        .catch(rethrowNameTaken);
    },

    /** Only an account nothing was ever posted to: the books keep every account they mention. */
    delete: async (ctx: TenantContext, id: string): Promise<void> => {
      requirePermission(ctx, "accounts:delete:all");
      try {
        await db.withTenant(ctx.tenantId, async (tx) => {
          const before = await findAccount(tx, ctx.tenantId, id);
          const deleted = await tx.moneyAccount.deleteMany({ where: { tenantId: ctx.tenantId, id } });
          if (deleted.count === 0) throw accountNotFound();
          await audit(tx, ctx, "money_account", id, "delete", { before });
        });
      } catch (error) {
        if (violatedForeignKey(error) !== null) {
          throw new AppError("CONFLICT", {
            reason: "finance.account_in_use",
            message: "The account has transactions and cannot be deleted",
          });
        }
        throw error;
      }
    },

    transactions: async (
      ctx: TenantContext,
      id: string,
      rawQuery: TListAccountTransactionsQuery,
    ): Promise<Page<TAccountTransactionDto>> => {
      requirePermission(ctx, "accounts:read:all");
      const query = parseInput(ZListAccountTransactionsQuery, rawQuery);
      const page = await db.withTenant(ctx.tenantId, async (tx) => {
        if ((await tx.moneyAccount.count({ where: { tenantId: ctx.tenantId, id } })) === 0) {
          throw accountNotFound();
        }
        return ledgerRepository.listForAccount(tx, ctx.tenantId, id, query);
      });
      return { ...page, limit: query.limit, offset: query.offset };
    },
  };
};

export type AccountsService = ReturnType<typeof createAccountsService>;
