import { audit, type Db, diffFields, idempotent, isUniqueViolation, violatedForeignKey } from "@hisob/db";
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
import { repositoryReads } from "../repository-reads";
import { accountsRepository as repository } from "./accounts.repository";
import {
  type TCreateMoneyAccountInput,
  type TListMoneyAccountsQuery,
  type TMoneyAccountDto,
  type TUpdateMoneyAccountInput,
  ZCreateMoneyAccountInput,
  ZListMoneyAccountsQuery,
  ZUpdateMoneyAccountInput,
} from "./accounts.schema";

export { toAccountDto } from "./accounts.repository";

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

/** Money accounts: each has one currency of the tenant's selection and a balance only postings move. */
export const createAccountsService = (deps: { db: Db; clock?: Clock }) => {
  const { db } = deps;
  const clock = deps.clock ?? systemClock;

  return {
    ...repositoryReads({
      db,
      permission: "accounts:read:all",
      listQuery: ZListMoneyAccountsQuery,
      repository,
      notFound: accountNotFound,
    }),
    list: async (ctx: TenantContext, rawQuery: TListMoneyAccountsQuery): Promise<Page<TMoneyAccountDto>> => {
      requirePermission(ctx, "accounts:read:all");
      const query = parseInput(ZListMoneyAccountsQuery, rawQuery);
      // Replaces the generic list: the typed read path (no ORM) for the busiest list of the app, page
      // and total in one statement — in a read-only driver transaction, one round trip.
      const page = await db.rawTx.withTenant(
        ctx.tenantId,
        (tx) => repository.listPage(tx, ctx.tenantId, query),
        {
          readOnly: true,
        },
      );
      return { ...page, limit: query.limit, offset: query.offset };
    },

    create: async (ctx: TenantContext, raw: TCreateMoneyAccountInput): Promise<TMoneyAccountDto> => {
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
          // Once per Idempotency-Key: a repeat answers the account the first request opened.
          return idempotent(tx, ctx, "accounts.create", input, async () => {
            const account = await repository.insert(tx, {
              tenantId: ctx.tenantId,
              name: input.name,
              number: input.number,
              currencyCode: input.currency,
              allowOverdraft: input.allowOverdraft,
              description: input.description,
            });
            await audit(tx, ctx, "money_account", account.id, "create", { after: account });
            return account;
          });
        })
        .catch(rethrowNameTaken);
    },

    update: async (
      ctx: TenantContext,
      id: string,
      raw: TUpdateMoneyAccountInput,
    ): Promise<TMoneyAccountDto> => {
      requirePermission(ctx, "accounts:update:all");
      const input = parseInput(ZUpdateMoneyAccountInput, raw);
      return db
        .withTenant(ctx.tenantId, async (tx) => {
          // Locks the row: a posting cannot slip a negative balance past the overdraft check below.
          const balance = await repository.lockBalance(tx, ctx.tenantId, id);
          if (balance === null) throw accountNotFound();
          if (input.allowOverdraft === false && balance < 0n) {
            throw new AppError("BUSINESS_RULE", {
              reason: "finance.account_negative",
              message: "Overdraft cannot be turned off while the balance is below zero",
              params: { balance: balance.toString() },
            });
          }
          const before = await repository.findById(tx, ctx.tenantId, id);
          await repository.update(tx, ctx.tenantId, id, {
            ...(input.name === undefined ? {} : { name: input.name }),
            ...(input.number === undefined ? {} : { number: input.number }),
            ...(input.allowOverdraft === undefined ? {} : { allowOverdraft: input.allowOverdraft }),
            ...(input.description === undefined ? {} : { description: input.description }),
            updatedAt: clock.now(),
          });
          const account = await repository.findById(tx, ctx.tenantId, id);
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
          const before = await repository.findById(tx, ctx.tenantId, id);
          if (!(await repository.delete(tx, ctx.tenantId, id))) throw accountNotFound();
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
        if (!(await repository.exists(tx, ctx.tenantId, id))) throw accountNotFound();
        return ledgerRepository.listForAccount(tx, ctx.tenantId, id, query);
      });
      return { ...page, limit: query.limit, offset: query.offset };
    },
  };
};

export type AccountsService = ReturnType<typeof createAccountsService>;
