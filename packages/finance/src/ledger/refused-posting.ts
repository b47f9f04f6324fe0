import type { AppError } from "@hisob/kernel";
import { fieldError } from "../finance-errors";
import { closedPeriodRefusal, readLockDate } from "../periods/closed-period";
import { insufficientBalance } from "./ledger";

/** Runs one statement with parameters in the posting's transaction (Prisma's or the driver's). */
export type RunSql = <T>(text: string, values: unknown[]) => Promise<T[]>;

type AccountRow = { name: string; balance: string; currency_code: string; minor_units: number };

/**
 * Why a posting statement moved no balance (so wrote nothing): a date in a closed period, an unknown account, a currency
 * other than the account's, or not enough money — asked after the fact (in the posting's
 * transaction, or just after a driver posting committed having changed nothing), so the posting
 * itself stays one statement.
 */
export const explainRefusal = async (
  run: RunSql,
  p: { tenantId: string; accountId: string; currency?: string | undefined; date?: string },
): Promise<AppError> => {
  if (p.date !== undefined) {
    const closed = closedPeriodRefusal(await readLockDate(run, p.tenantId), [
      { date: p.date, field: "date" },
    ]);
    if (closed) return closed;
  }
  const [account] = await run<AccountRow>(
    `SELECT a.name, a.balance::text AS balance, a.currency_code::text AS currency_code, c.minor_units::int AS minor_units
       FROM money_accounts a JOIN currencies c ON c.code = a.currency_code
      WHERE a.tenant_id = $1::uuid AND a.id = $2::uuid`,
    [p.tenantId, p.accountId],
  );
  if (!account)
    return fieldError("accountId", "finance.unknown_account", "is not an account of this organization");
  if (p.currency !== undefined && p.currency !== account.currency_code) {
    return fieldError(
      "currency",
      "finance.currency_mismatch",
      `must be the account's currency ${account.currency_code}`,
    );
  }
  return insufficientBalance("accountId", {
    name: account.name,
    balance: BigInt(account.balance),
    currencyCode: account.currency_code,
    minorUnits: Number(account.minor_units),
  });
};
