import { type Outbox, type RawTenantTx, sqlParams, stageAudit } from "@hisob/db";
import { type AppError, type Clock, newId, type TenantContext } from "@hisob/kernel";
import type { z } from "zod";
import { fieldError } from "../finance-errors";
import { insufficientBalance, outOfRange } from "../ledger/ledger";
import type { TTransactionDto } from "../ledger/ledger.schema";
import { closedPeriodRefusal, periodOpenSql, readLockDate } from "../periods/closed-period";
import { unknownAccount } from "./transfers.rules";
import type { ZTransferInput } from "./transfers.schema";

type AccountRow = { id: string; name: string; balance: string; currency_code: string; minor_units: number };

const currencyMismatch = (fromCurrency: string) =>
  fieldError(
    "toAccountId",
    "finance.transfer_currency_mismatch",
    `must be an account in ${fromCurrency}, like the origin (use an exchange between currencies)`,
  );

/**
 * Why the transfer statement moved nothing (so wrote nothing): a date in a closed period, an unknown account, two currencies,
 * or not enough money on the origin — asked after the fact, like a refused payment
 * (refused-posting.ts). The statement has committed by then (it moved no balance, wrote no row).
 */
const explainRefusedTransfer = async (
  tx: RawTenantTx,
  tenantId: string,
  input: { fromAccountId: string; toAccountId: string; date: string },
): Promise<AppError> => {
  const run = <T>(text: string, values: unknown[]) => tx.query<T>(text, values);
  const closed = closedPeriodRefusal(await readLockDate(run, tenantId), [
    { date: input.date, field: "date" },
  ]);
  if (closed) return closed;
  const rows = await tx.query<AccountRow>(
    `SELECT a.id::text AS id, a.name, a.balance::text AS balance, a.currency_code::text AS currency_code,
            c.minor_units::int AS minor_units
       FROM money_accounts a JOIN currencies c ON c.code = a.currency_code
      WHERE a.tenant_id = $1::uuid AND a.id IN ($2::uuid, $3::uuid)`,
    [tenantId, input.fromAccountId, input.toAccountId],
  );
  const from = rows.find((row) => row.id === input.fromAccountId);
  const to = rows.find((row) => row.id === input.toAccountId);
  if (!from) return unknownAccount("fromAccountId");
  if (!to) return unknownAccount("toAccountId");
  if (from.currency_code !== to.currency_code) return currencyMismatch(from.currency_code);
  return insufficientBalance("fromAccountId", {
    name: from.name,
    balance: BigInt(from.balance),
    currencyCode: from.currency_code,
    minorUnits: Number(from.minor_units),
  });
};

/**
 * A transfer posted in a driver transaction (raw-tenant.ts) as ONE statement: both accounts locked
 * in id order (two transfers over the same pair in opposite directions cannot deadlock), both
 * balances moved only if both accounts exist in one currency and the origin may give the amount (the
 * origin's UPDATE decides that on its current row, and the destination moves only after it did: a
 * condition on the values the locking SELECT returned lets concurrent expenses overdraw, seen under
 * pgbench), the ledger entry, its outbox event and its audit entry — each step reading the one
 * before, so a refused transfer changes nothing at all, and the
 * statement can commit as it returns (`commit`): with the scope travelling ahead of it as one
 * transaction, a transfer is one round trip on PostgreSQL, as a payment is; it was nine through
 * Prisma. An unknown counterparty fails the entry's tenant-scoped foreign key, and with it the
 * statement (so nothing commits).
 */
export const postTransfer = async (
  tx: RawTenantTx,
  deps: { outbox: Outbox; clock: Clock },
  ctx: TenantContext,
  input: z.output<typeof ZTransferInput>,
): Promise<TTransactionDto> => {
  const now = deps.clock.now();
  const id = newId();
  const dto: TTransactionDto = {
    id,
    type: "transfer",
    amount: input.amount,
    destinationAmount: null,
    exchangeRate: null,
    date: input.date,
    originAccountId: input.fromAccountId,
    destinationAccountId: input.toAccountId,
    comment: input.comment,
    counterpartyId: input.counterpartyId,
    reversalOfId: null,
    reversalReason: null,
    reversedById: null,
    createdBy: ctx.actor.userId,
    createdAt: now.toISOString(),
    paymentId: null,
    expenseId: null,
  };
  const params = sqlParams();
  const $ = (value: unknown) => params.add(value);
  const tenant = $(ctx.tenantId);
  const from = $(input.fromAccountId);
  const to = $(input.toAccountId);
  const amount = $(BigInt(input.amount));
  const at = $(now);
  const date = $(input.date);
  const event = deps.outbox.stage(
    tx,
    params,
    { type: "MoneyTransferred", tenantId: ctx.tenantId, payload: dto },
    { from: "entry" },
  );
  const audit = stageAudit(params, ctx, "transfer", id, "create", { after: dto }, { from: "entry" });
  const text = `
      WITH locked AS (
        SELECT id, currency_code FROM money_accounts
         WHERE tenant_id = ${tenant}::uuid AND id IN (${from}::uuid, ${to}::uuid)
         ORDER BY id
           FOR UPDATE
      ), agreed AS (
        SELECT count(*) = 2 AND count(DISTINCT currency_code) = 1 AS ok FROM locked
      ), taken AS (
        UPDATE money_accounts
           SET balance = balance - ${amount}::bigint, updated_at = ${at}::timestamptz
         WHERE (SELECT ok FROM agreed)
           AND tenant_id = ${tenant}::uuid AND id = ${from}::uuid
           AND (allow_overdraft OR balance - ${amount}::bigint >= 0)
           AND ${periodOpenSql(tenant, date)}
     RETURNING id
      ), given AS (
        UPDATE money_accounts
           SET balance = balance + ${amount}::bigint, updated_at = ${at}::timestamptz
         WHERE EXISTS (SELECT 1 FROM taken)
           AND tenant_id = ${tenant}::uuid AND id = ${to}::uuid
     RETURNING id
      ), entry AS (
        INSERT INTO transactions (id, tenant_id, type, amount, date, origin_account_id, destination_account_id,
                                  comment, counterparty_id, created_by, created_at)
        SELECT ${$(id)}::uuid, ${tenant}::uuid, 'transfer'::transaction_type, ${amount}::bigint,
               ${date}::date, ${from}::uuid, ${to}::uuid, ${$(input.comment)}::text,
               ${$(input.counterpartyId)}::uuid, ${$(ctx.actor.userId)}::uuid, ${at}::timestamptz
         WHERE EXISTS (SELECT 1 FROM given)
     RETURNING id
      ), event AS (${event.sql}), audit AS (${audit})
      SELECT (SELECT count(*) FROM entry)::int AS posted`;
  let rows: Array<{ posted: number }>;
  try {
    // One fixed text, run on every transfer: prepared (parsed once per connection, one plan for all);
    // it changes nothing unless it posts, so it commits as it returns — unless an idempotency key's
    // answer is still to be stored in the same transaction (idempotency.ts).
    rows = await tx.query<{ posted: number }>(text, params.values, {
      prepared: true,
      commit: !ctx.idempotencyKey,
    });
  } catch (error) {
    // The destination's balance grows (the origin's could only leave the range with an overdraft of
    // −9.2 × 10¹⁸): an overflow is the destination's.
    throw outOfRange(error, "toAccountId");
  }
  if (rows[0]?.posted !== 1) throw await explainRefusedTransfer(tx, ctx.tenantId, input);
  return dto;
};
