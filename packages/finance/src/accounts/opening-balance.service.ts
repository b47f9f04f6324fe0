import { audit, type Db, type Tx } from "@hisob/db";
import {
  AppError,
  type Clock,
  newId,
  parseInput,
  requirePermission,
  systemClock,
  type TenantContext,
} from "@hisob/kernel";
import { dateOf, toIsoDate } from "@hisob/kernel/schema";
import { fieldError } from "../finance-errors";
import { assertPeriodOpen, prismaSql } from "../periods/closed-period";
import { accountNotFound } from "./accounts.service";
import {
  type TOpeningBalanceDto,
  type TSetOpeningBalanceInput,
  ZSetOpeningBalanceInput,
} from "./opening-balance.schema";

/*
 * Opening balances: what an account already held when its books moved here, recorded as its own
 * ledger entry (type `opening_balance`, neither revenue nor expense), so the balance, the account
 * statement, the cash flow's opening balance and reconcile all see it like any other entry, and the
 * income statement (income and expense entries only) never does. It can be set, changed or removed
 * only while nothing else is posted to the account; after that it is history like the rest.
 * A posting of its own, not the shared one: one entry, one account, under the account's row lock.
 */

type OpeningRow = {
  id: string;
  amount: bigint;
  date: Date;
  comment: string;
  destinationAccountId: string | null;
};

const signed = (row: OpeningRow): bigint => (row.destinationAccountId ? row.amount : -row.amount);

const toDto = (accountId: string, row: OpeningRow, isEditable: boolean): TOpeningBalanceDto => ({
  accountId,
  transactionId: row.id,
  amount: signed(row).toString(),
  date: toIsoDate(row.date),
  comment: row.comment,
  isEditable,
});

const openingBalanceNotFound = () =>
  new AppError("NOT_FOUND", {
    reason: "finance.opening_balance_not_found",
    message: "The account has no opening balance",
  });

/** The account's opening entry, if any, and whether anything else touches the account. */
const readOpening = async (tx: Tx, tenantId: string, accountId: string) => {
  const account = { OR: [{ originAccountId: accountId }, { destinationAccountId: accountId }] };
  const [opening, others] = await Promise.all([
    tx.financeTransaction.findFirst({
      where: { tenantId, type: "opening_balance", ...account },
      select: { id: true, amount: true, date: true, comment: true, destinationAccountId: true },
    }),
    tx.financeTransaction.count({
      where: { tenantId, type: { not: "opening_balance" }, ...account },
      take: 1,
    }),
  ]);
  return { opening, hasOtherPostings: others > 0 };
};

export const createOpeningBalancesService = (deps: { db: Db; clock?: Clock }) => {
  const { db } = deps;
  const clock = deps.clock ?? systemClock;

  return {
    get: async (ctx: TenantContext, accountId: string): Promise<TOpeningBalanceDto> => {
      requirePermission(ctx, "accounts:read:all");
      return db.withTenant(ctx.tenantId, async (tx) => {
        const exists = await tx.moneyAccount.count({ where: { tenantId: ctx.tenantId, id: accountId } });
        if (exists === 0) throw accountNotFound();
        const { opening, hasOtherPostings } = await readOpening(tx, ctx.tenantId, accountId);
        if (!opening) throw openingBalanceNotFound();
        return toDto(accountId, opening, !hasOtherPostings);
      });
    },

    /**
     * Sets, changes or (amount "0") removes the opening balance, moving the stored balance by the
     * difference in the same transaction. Refused once anything else was posted to the account.
     * Returns the opening balance, or null when it was removed.
     */
    set: async (
      ctx: TenantContext,
      accountId: string,
      raw: TSetOpeningBalanceInput,
    ): Promise<TOpeningBalanceDto | null> => {
      requirePermission(ctx, "accounts:update:all");
      const input = parseInput(ZSetOpeningBalanceInput, raw);
      const amount = BigInt(input.amount);
      const { tenantId } = ctx;
      return db.withTenant(tenantId, async (tx) => {
        // The account's row lock: postings to it queue behind this, and this behind them.
        const [account] = await tx.$queryRaw<{ allow_overdraft: boolean; balance: string }[]>`
          SELECT allow_overdraft, balance::text FROM money_accounts
           WHERE tenant_id = ${tenantId}::uuid AND id = ${accountId}::uuid FOR UPDATE`;
        if (!account) throw accountNotFound();
        await assertPeriodOpen(prismaSql(tx), tenantId, [{ date: input.date, field: "date" }]);
        if (amount < 0n && !account.allow_overdraft) {
          throw fieldError(
            "amount",
            "finance.opening_negative",
            "must not be negative for an account without overdraft",
          );
        }
        const { opening, hasOtherPostings } = await readOpening(tx, tenantId, accountId);
        // Replacing or removing an opening balance dated in a closed period changes that period.
        if (opening) await assertPeriodOpen(prismaSql(tx), tenantId, [{ date: opening.date, field: null }]);
        if (hasOtherPostings) {
          throw new AppError("BUSINESS_RULE", {
            reason: "finance.opening_balance_locked",
            message:
              "Other entries are posted to the account: its opening balance is part of the books and can no longer change",
          });
        }
        const now = clock.now();
        const delta = amount - (opening ? signed(opening) : 0n);
        if (opening) await tx.financeTransaction.deleteMany({ where: { tenantId, id: opening.id } });
        let created: OpeningRow | null = null;
        if (amount !== 0n) {
          created = await tx.financeTransaction.create({
            data: {
              id: newId(),
              tenantId,
              type: "opening_balance",
              amount: amount < 0n ? -amount : amount,
              ...(amount > 0n ? { destinationAccountId: accountId } : { originAccountId: accountId }),
              date: dateOf(input.date),
              comment: input.comment,
              createdBy: ctx.actor.userId,
              createdAt: now,
            },
            select: { id: true, amount: true, date: true, comment: true, destinationAccountId: true },
          });
        }
        // Nothing else is on the account, so its balance becomes exactly the opening amount.
        await tx.$executeRaw`
          UPDATE money_accounts SET balance = balance + ${delta}::bigint, updated_at = ${now}
           WHERE tenant_id = ${tenantId}::uuid AND id = ${accountId}::uuid`;
        const result = created ? toDto(accountId, created, true) : null;
        // The account's money changed: audited on the account, the opening balance before and after
        // (amount "0": none).
        const facts = (row: OpeningRow | null) =>
          row
            ? { amount: signed(row).toString(), date: toIsoDate(row.date), comment: row.comment }
            : { amount: "0" };
        await audit(tx, ctx, "money_account", accountId, "set_opening_balance", {
          before: facts(opening),
          after: facts(created),
        });
        return result;
      });
    },
  };
};

export type OpeningBalancesService = ReturnType<typeof createOpeningBalancesService>;
