import {
  audit,
  type Db,
  diffFields,
  isUniqueViolation,
  type Outbox,
  type Tx,
  violatedForeignKey,
} from "@hisob/db";
import { t } from "@hisob/i18n";
import {
  AppError,
  applyRate,
  type Clock,
  INT64_MAX,
  moneyParam,
  newId,
  parseInput,
  type QuoteParam,
  requirePermission,
  systemClock,
  type TenantContext,
} from "@hisob/kernel";
import { dateOf } from "../dates";
import { fieldError, notFound } from "../finance-errors";
import { ledgerRepository, moveBalances } from "../ledger/ledger";
import type { TTransactionDto } from "../ledger/ledger.schema";
import {
  type CurrencyDigits,
  decimalRatio,
  differsBeyond,
  majorRatio,
  normalizeRate,
  quoteRatio,
  type Ratio,
  readableRatio,
  shortestRate,
} from "./rates";
import {
  EXCHANGE_RATE_MARGIN_PERCENT,
  exchangeFormOf,
  ZExchangeInput,
  ZReverseInput,
  ZTransferInput,
  ZUpdateMovementInput,
} from "./transfers.schema";

type Kind = "transfer" | "exchange";

const unknownAccount = (field: string) =>
  fieldError(field, "finance.unknown_account", "is not an account of this organization");
const unknownCounterparty = () =>
  fieldError("counterpartyId", "finance.unknown_counterparty", "is not a counterparty of this organization");
const movementNotFound = (kind: Kind) =>
  kind === "transfer"
    ? notFound("finance.transfer_not_found", "Transfer not found")
    : notFound("finance.exchange_not_found", "Exchange not found");

/** Both accounts' currencies with their minor digits; either unknown → a field error naming it. */
const currenciesOf = async (tx: Tx, tenantId: string, fromAccountId: string, toAccountId: string) => {
  const rows = await tx.moneyAccount.findMany({
    where: { tenantId, id: { in: [fromAccountId, toAccountId] } },
    select: {
      id: true,
      currencyCode: true,
      currency: { select: { currency: { select: { minorUnits: true } } } },
    },
  });
  const byId = new Map<string, CurrencyDigits>(
    rows.map((row) => [row.id, { code: row.currencyCode, minorUnits: row.currency.currency.minorUnits }]),
  );
  const from = byId.get(fromAccountId);
  const to = byId.get(toAccountId);
  if (from === undefined) throw unknownAccount("fromAccountId");
  if (to === undefined) throw unknownAccount("toAccountId");
  return { from, to };
};

const checkCounterparty = async (tx: Tx, tenantId: string, counterpartyId: string | null | undefined) => {
  if (!counterpartyId) return;
  const found = await tx.counterparty.findFirst({
    where: { tenantId, id: counterpartyId },
    select: { id: true },
  });
  if (!found) throw unknownCounterparty();
};

/** A counterparty deleted between the check and the write still fails on its foreign key: same answer. */
const rethrowCounterparty = (error: unknown): never => {
  if (violatedForeignKey(error)?.includes("counterparty")) throw unknownCounterparty();
  throw error;
};

const outOfRange = (field: string) =>
  fieldError(field, "finance.exchange_out_of_range", "times rate is beyond what an amount can hold");
const tooSmall = (field: string) =>
  fieldError(field, "finance.exchange_too_small", "times rate rounds down to zero");

/** The last exchange of the same two currencies (either direction) not reversed and not a reversal. */
type LastRateRow = { amount: string; destination_amount: string; from_code: string };
const lastRateOf = async (
  tx: Tx,
  tenantId: string,
  from: string,
  to: string,
): Promise<LastRateRow | null> => {
  const rows = await tx.$queryRaw<LastRateRow[]>`
    SELECT t.amount::text AS amount, t.destination_amount::text AS destination_amount, o.currency_code AS from_code
      FROM transactions t
      JOIN money_accounts o ON o.tenant_id = t.tenant_id AND o.id = t.origin_account_id
      JOIN money_accounts d ON d.tenant_id = t.tenant_id AND d.id = t.destination_account_id
     WHERE t.tenant_id = ${tenantId}::uuid AND t.type = 'exchange' AND t.reversal_of_id IS NULL
       AND ((o.currency_code = ${from} AND d.currency_code = ${to})
         OR (o.currency_code = ${to} AND d.currency_code = ${from}))
       AND NOT EXISTS (SELECT 1 FROM transactions r
                        WHERE r.tenant_id = t.tenant_id AND r.reversal_of_id = t.id)
     ORDER BY t.created_at DESC, t.id DESC
     LIMIT 1`;
  return rows[0] ?? null;
};

/** A minor-per-minor ratio of `from` → `to` as the market reads it: 1 from = x to (major units). */
const asMajor = (ratio: Ratio, from: CurrencyDigits, to: CurrencyDigits): Ratio =>
  majorRatio(ratio.den, ratio.num, from, to);

/** "1 A = x B" with the currency worth more as the base. */
const conventional = (major: Ratio, from: string, to: string): QuoteParam =>
  major.num >= major.den
    ? { base: from, quote: to, rate: readableRatio(major) }
    : { base: to, quote: from, rate: readableRatio({ num: major.den, den: major.num }) };

/** Money moved between two of the tenant's accounts: one ledger entry, both balances, one transaction. */
export const createTransfersService = (deps: { db: Db; outbox: Outbox; clock?: Clock }) => {
  const { db, outbox } = deps;
  const clock = deps.clock ?? systemClock;

  const post = async (
    ctx: TenantContext,
    tx: Tx,
    entry: {
      type: Kind;
      fromAccountId: string;
      toAccountId: string;
      amount: bigint;
      destinationAmount: bigint | null;
      rate: string | null;
      date: Date;
      comment: string;
      counterpartyId: string | null;
      reversal?: { of: string; reason: string };
    },
  ): Promise<TTransactionDto> => {
    const now = clock.now();
    await moveBalances(
      tx,
      ctx.tenantId,
      [
        { accountId: entry.fromAccountId, delta: -entry.amount, field: "fromAccountId" },
        {
          accountId: entry.toAccountId,
          delta: entry.destinationAmount ?? entry.amount,
          field: "toAccountId",
        },
      ],
      now,
    );
    const id = newId();
    await tx.financeTransaction.create({
      data: {
        id,
        tenantId: ctx.tenantId,
        type: entry.type,
        amount: entry.amount,
        destinationAmount: entry.destinationAmount,
        exchangeRate: entry.rate,
        date: entry.date,
        originAccountId: entry.fromAccountId,
        destinationAccountId: entry.toAccountId,
        comment: entry.comment,
        counterpartyId: entry.counterpartyId,
        reversalOfId: entry.reversal?.of ?? null,
        reversalReason: entry.reversal?.reason ?? null,
        createdBy: ctx.actor.userId,
        createdAt: now,
      },
      select: { id: true },
    });
    const dto = await ledgerRepository.find(tx, ctx.tenantId, id);
    if (!dto) throw new Error("posted transaction vanished");
    await outbox.raise(tx, {
      type: entry.type === "transfer" ? "MoneyTransferred" : "MoneyExchanged",
      tenantId: ctx.tenantId,
      payload: dto,
    });
    if (!entry.reversal) await audit(tx, ctx, entry.type, id, "create", { after: dto });
    return dto;
  };

  /**
   * The plausibility guard: refuses (unless confirmed) a rate given in minor units for a pair never
   * exchanged before, and any rate more than the margin away from the pair's last exchange.
   */
  const guard = async (
    tx: Tx,
    ctx: TenantContext,
    o: {
      from: CurrencyDigits;
      to: CurrencyDigits;
      form: "amountReceived" | "marketRate" | "rate";
      ratio: Ratio;
      amount: bigint;
      received: bigint;
    },
  ) => {
    const { from, to } = o;
    const last = await lastRateOf(tx, ctx.tenantId, from.code, to.code);
    if (!last && o.form !== "rate") return;
    let reference: Ratio | null = null;
    if (last) {
      // What actually moved last time (exact), read in this exchange's direction.
      const out = BigInt(last.amount);
      const received = BigInt(last.destination_amount);
      reference = last.from_code === from.code ? { num: received, den: out } : { num: out, den: received };
      if (!differsBeyond(o.ratio, reference, EXCHANGE_RATE_MARGIN_PERCENT)) return;
    }
    const major = asMajor(o.ratio, from, to);
    const shown = readableRatio(major);
    const params = {
      field: o.form,
      reading: { base: from.code, quote: to.code, rate: shown },
      swapped: { base: to.code, quote: from.code, rate: shown },
      amount: moneyParam(o.amount, from.code, from.minorUnits),
      received: moneyParam(o.received, to.code, to.minorUnits),
      margin: EXCHANGE_RATE_MARGIN_PERCENT,
      ...(reference ? { last: conventional(asMajor(reference, from, to), from.code, to.code) } : {}),
      confirmWith: "confirmRate",
    };
    const reason = reference ? "finance.exchange_rate_implausible" : "finance.exchange_rate_unconfirmed";
    throw new AppError("BUSINESS_RULE", {
      reason,
      message: t("en", `errors.${reason}`, params),
      params,
    });
  };

  /** A transfer or exchange of the tenant, locked against a concurrent reversal or edit. */
  const lockMovement = async (tx: Tx, tenantId: string, kind: Kind, id: string) => {
    const rows = await tx.$queryRaw<{ id: string }[]>`
      SELECT id::text FROM transactions
       WHERE tenant_id = ${tenantId}::uuid AND id = ${id}::uuid AND type = ${kind}::transaction_type
         FOR UPDATE`;
    if (rows.length === 0) throw movementNotFound(kind);
    const dto = await ledgerRepository.find(tx, tenantId, id);
    if (!dto) throw movementNotFound(kind);
    return dto;
  };

  const reverse = async (ctx: TenantContext, kind: Kind, id: string, raw: unknown) => {
    requirePermission(ctx, kind === "transfer" ? "transfers:update:all" : "exchanges:update:all");
    const input = parseInput(ZReverseInput, raw);
    try {
      return await db.withTenant(ctx.tenantId, async (tx) => {
        const original = await lockMovement(tx, ctx.tenantId, kind, id);
        if (original.reversalOfId !== null) {
          throw new AppError("BUSINESS_RULE", {
            reason: "finance.reversal_not_reversible",
            message: "A reversal cannot be reversed; post the entry again instead",
          });
        }
        if (original.reversedById !== null) throw alreadyReversed();
        if (!original.originAccountId || !original.destinationAccountId) throw movementNotFound(kind);
        const out = BigInt(original.amount);
        const received = original.destinationAmount === null ? null : BigInt(original.destinationAmount);
        // The exact opposite: what arrived goes back out, what left comes back in.
        const reversal = await post(ctx, tx, {
          type: kind,
          fromAccountId: original.destinationAccountId,
          toAccountId: original.originAccountId,
          amount: received ?? out,
          destinationAmount: received === null ? null : out,
          rate: received === null ? null : shortestRate(received, out),
          date: dateOf(input.date ?? original.date),
          comment: original.comment,
          counterpartyId: original.counterpartyId,
          reversal: { of: original.id, reason: input.reason },
        });
        await audit(tx, ctx, kind, original.id, "reverse", {
          after: { reversalId: reversal.id, reason: input.reason },
        });
        return reversal;
      });
    } catch (error) {
      // Two reversals racing past the lock cannot both insert: the unique (tenant, reversal_of_id) says so.
      if (isUniqueViolation(error)) throw alreadyReversed();
      throw error;
    }
  };

  const update = async (ctx: TenantContext, kind: Kind, id: string, raw: unknown) => {
    requirePermission(ctx, kind === "transfer" ? "transfers:update:all" : "exchanges:update:all");
    const input = parseInput(ZUpdateMovementInput, raw);
    try {
      return await db.withTenant(ctx.tenantId, async (tx) => {
        const before = await lockMovement(tx, ctx.tenantId, kind, id);
        await checkCounterparty(tx, ctx.tenantId, input.counterpartyId);
        await tx.financeTransaction.update({
          where: { tenantId_id: { tenantId: ctx.tenantId, id } },
          data: {
            ...(input.date !== undefined ? { date: dateOf(input.date) } : {}),
            ...(input.comment !== undefined ? { comment: input.comment } : {}),
            ...(input.counterpartyId !== undefined ? { counterpartyId: input.counterpartyId } : {}),
          },
          select: { id: true },
        });
        const after = await ledgerRepository.find(tx, ctx.tenantId, id);
        if (!after) throw movementNotFound(kind);
        await audit(tx, ctx, kind, id, "update", diffFields(before, after));
        return after;
      });
    } catch (error) {
      return rethrowCounterparty(error);
    }
  };

  return {
    transfer: async (ctx: TenantContext, raw: unknown): Promise<TTransactionDto> => {
      requirePermission(ctx, "transfers:create:all");
      const input = parseInput(ZTransferInput, raw);
      try {
        return await db.withTenant(ctx.tenantId, async (tx) => {
          const currency = await currenciesOf(tx, ctx.tenantId, input.fromAccountId, input.toAccountId);
          if (currency.from.code !== currency.to.code) {
            throw fieldError(
              "toAccountId",
              "finance.transfer_currency_mismatch",
              `must be an account in ${currency.from.code}, like the origin (use an exchange between currencies)`,
            );
          }
          await checkCounterparty(tx, ctx.tenantId, input.counterpartyId);
          return post(ctx, tx, {
            type: "transfer",
            ...input,
            amount: BigInt(input.amount),
            date: dateOf(input.date),
            destinationAmount: null,
            rate: null,
          });
        });
      } catch (error) {
        return rethrowCounterparty(error);
      }
    },

    /**
     * An exchange in any of its three forms (see `rates.ts`): the destination receives exactly the
     * amount received, or trunc(amount × rate) for a market quote or a rate in minor units.
     */
    exchange: async (ctx: TenantContext, raw: unknown): Promise<TTransactionDto> => {
      requirePermission(ctx, "exchanges:create:all");
      const input = parseInput(ZExchangeInput, raw);
      const form = exchangeFormOf(input);
      const amount = BigInt(input.amount);
      try {
        return await db.withTenant(ctx.tenantId, async (tx) => {
          const { from, to } = await currenciesOf(tx, ctx.tenantId, input.fromAccountId, input.toAccountId);
          if (from.code === to.code) {
            throw fieldError(
              "toAccountId",
              "finance.exchange_same_currency",
              `must be in another currency than ${from.code} (use a transfer within one currency)`,
            );
          }
          let received: bigint;
          let ratio: Ratio;
          let rate: string;
          if (form === "amountReceived" && input.amountReceived !== undefined) {
            received = BigInt(input.amountReceived);
            ratio = { num: received, den: amount };
            rate = shortestRate(amount, received);
          } else if (form === "marketRate" && input.marketRate !== undefined) {
            const quoted = quoteRatio(input.marketRate, from, to);
            if (!quoted) {
              throw fieldError(
                "marketRate",
                "finance.exchange_quote_currency",
                `must name the accounts' currencies ${from.code} and ${to.code}`,
              );
            }
            ratio = quoted;
            received = (amount * quoted.num) / quoted.den;
            if (received > INT64_MAX) throw outOfRange("amount");
            if (received <= 0n) throw tooSmall("amount");
            rate = shortestRate(amount, received);
          } else if (input.rate !== undefined) {
            try {
              received = applyRate(amount, input.rate);
            } catch {
              throw outOfRange("amount");
            }
            if (received <= 0n) throw tooSmall("amount");
            ratio = decimalRatio(input.rate);
            rate = normalizeRate(input.rate);
          } else {
            throw new Error("exchange input without a form passed its schema");
          }
          if (!input.confirmRate) {
            await guard(tx, ctx, { from, to, form: form ?? "rate", ratio, amount, received });
          }
          await checkCounterparty(tx, ctx.tenantId, input.counterpartyId);
          return post(ctx, tx, {
            type: "exchange",
            fromAccountId: input.fromAccountId,
            toAccountId: input.toAccountId,
            amount,
            destinationAmount: received,
            rate,
            date: dateOf(input.date),
            comment: input.comment,
            counterpartyId: input.counterpartyId,
          });
        });
      } catch (error) {
        return rethrowCounterparty(error);
      }
    },

    /** Posts the exact opposite of a transfer (both kept, linked), with why; once. */
    reverseTransfer: (ctx: TenantContext, id: string, raw: unknown) => reverse(ctx, "transfer", id, raw),
    reverseExchange: (ctx: TenantContext, id: string, raw: unknown) => reverse(ctx, "exchange", id, raw),
    /** Changes a transfer's date, comment or counterparty: nothing that moves money. */
    updateTransfer: (ctx: TenantContext, id: string, raw: unknown) => update(ctx, "transfer", id, raw),
    updateExchange: (ctx: TenantContext, id: string, raw: unknown) => update(ctx, "exchange", id, raw),
  };
};

const alreadyReversed = () =>
  new AppError("CONFLICT", {
    reason: "finance.already_reversed",
    message: "This entry has already been reversed",
  });

export type TransfersService = ReturnType<typeof createTransfersService>;
