import { idempotent, type Tx } from "@hisob/db";
import { t } from "@hisob/i18n";
import {
  AppError,
  applyRate,
  INT64_MAX,
  moneyParam,
  parseInput,
  type QuoteParam,
  requirePermission,
  type TenantContext,
} from "@hisob/kernel";
import { dateOf } from "@hisob/kernel/schema";
import { fieldError } from "../finance-errors";
import type { TTransactionDto } from "../ledger/ledger.schema";
import { assertPeriodOpen, prismaSql } from "../periods/closed-period";
import {
  beyondFactor,
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
import { transfersRepository as repository } from "./transfers.repository";
import {
  checkCounterparty,
  currenciesOf,
  postingOf,
  rethrowCounterparty,
  type TransfersDeps,
} from "./transfers.rules";
import {
  EXCHANGE_RATE_MARGIN_PERCENT,
  EXCHANGE_RATE_USUAL_FACTOR,
  exchangeFormOf,
  type TExchangeGuardReason,
  type TExchangeInput,
  ZExchangeInput,
} from "./transfers.schema";
import { typicalRatio } from "./typical-rates";

const outOfRange = (field: string) =>
  fieldError(field, "finance.exchange_out_of_range", "times rate is beyond what an amount can hold");
const tooSmall = (field: string) =>
  fieldError(field, "finance.exchange_too_small", "times rate rounds down to zero");

/** A minor-per-minor ratio of `from` → `to` as the market reads it: 1 from = x to (major units). */
const asMajor = (ratio: Ratio, from: CurrencyDigits, to: CurrencyDigits): Ratio =>
  majorRatio(ratio.den, ratio.num, from, to);

/** "1 A = x B" with the currency worth more as the base. */
const conventional = (major: Ratio, from: string, to: string): QuoteParam =>
  major.num >= major.den
    ? { base: from, quote: to, rate: readableRatio(major) }
    : { base: to, quote: from, rate: readableRatio({ num: major.den, den: major.num }) };

type GuardReason = TExchangeGuardReason;

/**
 * The plausibility guard (docs/decisions/0016-exchange-plausibility.md), on every exchange not
 * confirmed: against the organization's last exchange of the pair in either direction (more than
 * the margin away: refused); for a pair never exchanged, against the currencies' typical rate (more
 * than the factor off: refused, saying when the rate read the other way round would be usual); and
 * with neither, a rate in minor units (form c) is refused until confirmed. The refusal's values are
 * exactly what the same request, confirmed, posts.
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
  const last = await repository.lastExchangeOf(tx, ctx.tenantId, from.code, to.code);
  // What the rate means in major units (1 from = x to), the way banks write it, and read the other way round.
  const major = asMajor(o.ratio, from, to);
  const reading = conventional(major, from.code, to.code);
  const common = {
    field: o.form,
    reading,
    swapped: { base: reading.quote, quote: reading.base, rate: reading.rate },
    amount: moneyParam(o.amount, from.code, from.minorUnits),
    received: moneyParam(o.received, to.code, to.minorUnits),
    confirmWith: "confirmRate",
  };
  const refuse = (reason: GuardReason, params: Record<string, number | QuoteParam>): never => {
    const all = { ...common, ...params };
    throw new AppError("BUSINESS_RULE", { reason, message: t("en", `errors.${reason}`, all), params: all });
  };
  if (last) {
    // What actually moved last time (exact), read in this exchange's direction.
    const out = BigInt(last.amount);
    const received = BigInt(last.destination_amount);
    const reference: Ratio =
      last.from_code === from.code ? { num: received, den: out } : { num: out, den: received };
    if (!differsBeyond(o.ratio, reference, EXCHANGE_RATE_MARGIN_PERCENT)) return;
    return refuse("finance.exchange_rate_implausible", {
      margin: EXCHANGE_RATE_MARGIN_PERCENT,
      last: conventional(asMajor(reference, from, to), from.code, to.code),
    });
  }
  const typical = typicalRatio(from.code, to.code);
  if (typical) {
    if (!beyondFactor(major, typical, EXCHANGE_RATE_USUAL_FACTOR)) return;
    // `swapped` (the same number with the currencies the other way round) is 1 from = 1/x to.
    const inverse: Ratio = { num: major.den, den: major.num };
    const wrongWayRound = !beyondFactor(inverse, typical, EXCHANGE_RATE_USUAL_FACTOR);
    return refuse(wrongWayRound ? "finance.exchange_rate_inverted" : "finance.exchange_rate_unusual", {
      factor: EXCHANGE_RATE_USUAL_FACTOR,
      typical: conventional(typical, from.code, to.code),
    });
  }
  if (o.form === "rate") return refuse("finance.exchange_rate_unconfirmed", {});
};

/** Exchanges between accounts of different currencies. */
export const createExchangesService = (deps: TransfersDeps) => {
  const { db } = deps;
  const post = postingOf(deps);

  return {
    /**
     * An exchange in any of its three forms (see `rates.ts`): the destination receives exactly the
     * amount received, or trunc(amount × rate) for a market quote or a rate in minor units.
     */
    exchange: async (ctx: TenantContext, raw: TExchangeInput): Promise<TTransactionDto> => {
      requirePermission(ctx, "exchanges:create:all");
      const input = parseInput(ZExchangeInput, raw);
      const form = exchangeFormOf(input);
      const amount = BigInt(input.amount);
      try {
        return await db.withTenant(ctx.tenantId, (tx) =>
          idempotent(tx, ctx, "exchanges.create", input, async () => {
            await assertPeriodOpen(prismaSql(tx), ctx.tenantId, [{ date: input.date, field: "date" }]);
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
          }),
        );
      } catch (error) {
        return rethrowCounterparty(error);
      }
    },
  };
};
